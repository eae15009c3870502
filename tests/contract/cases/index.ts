/**
 * Every contract case, in one list: the table both test files run
 * (tests/contract/double.test.ts against the double, tests/real/contract.real.test.ts
 * against openviking-server), and `describeContract`, which runs it.
 *
 * @module
 */
import { describe, it } from 'vitest';
import type { ContractTarget, Mode } from '../target.js';
import type { ContractCase } from './case.js';
import { commitCases } from './commit.js';
import { fsCases } from './fs.js';
import { mcpCases } from './mcp.js';
import { searchCases } from './search.js';
import { sessionCases } from './sessions.js';
import { systemCases } from './system.js';

export type { ContractCase } from './case.js';

export const CASES: readonly ContractCase[] = [
  ...systemCases,
  ...fsCases,
  ...sessionCases,
  ...commitCases,
  ...searchCases,
  ...mcpCases,
];

export const MODES: readonly Mode[] = ['dev', 'api_key'];

/**
 * One `describe` per mode, one test per case, run concurrently (each case
 * has a tenant of its own, and most of a case's time is the server's).
 * `targetOf` is called when a case starts, after the file's setup.
 */
export function describeContract(kind: ContractTarget['kind'], targetOf: (mode: Mode) => ContractTarget): void {
  for (const mode of MODES)
    describe(`the contract, against the ${kind} server in ${mode} mode`, () => {
      for (const entry of CASES.filter((item) => (item.modes ?? MODES).includes(mode)))
        it.concurrent(entry.name, () => entry.run(targetOf(mode)));
    });
}
