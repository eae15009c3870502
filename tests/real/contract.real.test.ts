/**
 * The contract suite against the real OpenViking server (issue 37 item 4):
 * every case of tests/contract/cases, in dev and api_key mode, against the
 * suite's two shared servers. The same cases run against the double in the
 * unit suite (tests/contract/double.test.ts), so a property one server
 * breaks fails there or here. Each case makes its own tenant (a fresh
 * account), so the cases run concurrently beside the other real files.
 *
 * @module
 */
import { describeContract } from '../contract/cases/index.js';
import type { ContractTarget, Mode } from '../contract/target.js';
import { sharedServers } from './support/servers.js';

const { dev, keyed } = sharedServers();

function targetOf(mode: Mode): ContractTarget {
  return mode === 'dev'
    ? { kind: 'real', mode, url: dev.url }
    : { kind: 'real', mode, url: keyed.url, ...(keyed.rootKey !== undefined ? { rootKey: keyed.rootKey } : {}) };
}

describeContract('real', targetOf);
