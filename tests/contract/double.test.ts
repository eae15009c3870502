/**
 * The contract suite against the double (issue 37 item 4): every case of
 * tests/contract/cases, in dev and api_key mode, against
 * tests/support/ov-server, the server every other unit test meets. The
 * same cases run against openviking-server 0.5.2 (tests/real/contract.real.test.ts),
 * so the double cannot drift from it unseen. The double commits with
 * `extractOnCommit` (its stand-in for the model's extraction), as the real
 * server's fake provider extracts.
 *
 * @module
 */
import { afterAll, beforeAll } from 'vitest';
import { describeContract } from './cases/index.js';
import type { ContractTarget, Mode } from './target.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';

const ROOT_KEY = 'contract-root-key';
const servers: Partial<Record<Mode, OvTestServer>> = {};

beforeAll(async () => {
  servers.dev = await startOvServer({ extractOnCommit: true });
  servers.api_key = await startOvServer({
    extractOnCommit: true,
    auth: { mode: 'api_key', rootKey: ROOT_KEY, keys: {} },
  });
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

function targetOf(mode: Mode): ContractTarget {
  const server = servers[mode];
  if (server === undefined) throw new Error(`no ${mode} double`);
  return { kind: 'double', mode, url: server.url, ...(mode === 'api_key' ? { rootKey: ROOT_KEY } : {}) };
}

describeContract('double', targetOf);
