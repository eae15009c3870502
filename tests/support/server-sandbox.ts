/**
 * A test server and a sandbox (HOME and one workspace under a fresh temp
 * root): made once (`createServerSandbox`, which the module's and the
 * import's worlds build on), or per test (`useServerSandbox`, for suites
 * that drive the built hooks through the host simulator; background plugin
 * processes of the sandbox are waited for before it is removed).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { resolveDataDir } from '../../src/store/paths.js';
import { until } from '../capture/support/world.js';
import { pluginProcesses } from './detached.js';
import { startOvServer, type OvServerOptions, type OvTestServer } from './ov-server/index.js';

export interface ServerSandbox {
  readonly server: OvTestServer;
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
}

export interface OwnedServerSandbox extends ServerSandbox {
  /** The plugin's data directory in this HOME when no variable names another (store/paths.ts). */
  readonly dataDir: string;
  /** Closes the server and removes the root. */
  dispose(): Promise<void>;
}

/** A test server (`server`: its options) and `<tmp>/<prefix>…/{home,ws}`, until `dispose`. */
export async function createServerSandbox(prefix: string, server?: OvServerOptions): Promise<OwnedServerSandbox> {
  const started = await startOvServer(server);
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(workspace);
  return {
    server: started,
    root,
    home,
    workspace,
    dataDir: resolveDataDir({}, home),
    dispose: async () => {
      await started.close();
      rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

export function useServerSandbox(prefix: string): ServerSandbox {
  let current: OwnedServerSandbox | undefined;
  beforeEach(async () => {
    current = await createServerSandbox(prefix);
  });
  afterEach(async () => {
    if (current === undefined) return;
    const { home, dispose } = current;
    await until(() => pluginProcesses(home).length === 0, 20_000, 'background work').catch(() => undefined);
    await dispose();
  });
  const get = (): ServerSandbox => {
    if (current === undefined) throw new Error('the sandbox is made in beforeEach');
    return current;
  };
  return {
    get server() {
      return get().server;
    },
    get root() {
      return get().root;
    },
    get home() {
      return get().home;
    },
    get workspace() {
      return get().workspace;
    },
  };
}
