/**
 * The real-server suite's globalSetup (vitest.real.config.ts): installs the
 * pinned `openviking` wheel when its venv is missing or stale
 * (`scripts/dev/openviking.sh install`: a failed install fails the run, never
 * skips it; not when `OPENVIKING_SERVER_BIN` names one) and, under CI=true
 * or where it was installed before, the recall benchmark's embedding model
 * (`scripts/dev/recall-embed.sh install`, for recall-quality.real.test.ts).
 * `.ci/run` starts both installs in the background while the unit suite
 * runs; each waits here on its install lock until that one is done. Then it
 * builds the plugin and starts two real servers for every file:
 * one in `dev` mode and one with a root key (`api_key` mode). It prints
 * `openviking-server <version> at <url>` once, and hands each file the
 * servers' addresses and their provider logs (provided context
 * `realServers`). Files isolate themselves by user (dev mode) or account
 * (api_key mode); a file that stops or breaks a server starts its own
 * (tests/real/support/servers.ts).
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { EMBED_HOME, installEmbedStack } from '../../../bench/recall/embedEndpoint.js';
import buildBeforeTest from '../../support/build-before-test.js';
import { REPO_ROOT } from '../../support/real-server/install.js';
import { startRealServer, type RealServer } from '../../support/real-server/index.js';
import type { SharedServer } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    realServers: { dev: SharedServer; keyed: SharedServer };
  }
}

function shared(server: RealServer): SharedServer {
  return {
    url: server.url,
    version: server.version,
    auth: server.auth,
    ...(server.rootKey !== undefined ? { rootKey: server.rootKey } : {}),
    providerLog: join(server.workspace, 'provider.jsonl'),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // OPENVIKING_SERVER_BIN names an installed server to run (install.ts): nothing to install then.
  if (!process.env.OPENVIKING_SERVER_BIN) {
    const install = spawnSync('sh', [join(REPO_ROOT, 'scripts/dev/openviking.sh'), 'install'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      timeout: 20 * 60_000,
    });
    if (install.status !== 0) throw new Error(`scripts/dev/openviking.sh install failed (status ${install.status})`);
  }
  if (process.env.CI === 'true' || existsSync(EMBED_HOME)) installEmbedStack();
  await buildBeforeTest();
  const [dev, keyed] = await Promise.all([
    startRealServer({ name: 'suite-dev' }),
    startRealServer({ name: 'suite-keyed', auth: 'api_key' }),
  ]);
  process.stdout.write(`openviking-server ${dev.version} at ${dev.url} (and in api_key mode at ${keyed.url})\n`);
  project.provide('realServers', { dev: shared(dev), keyed: shared(keyed) });
  return async () => {
    await Promise.all([dev.stop(), keyed.stop()]);
  };
}
