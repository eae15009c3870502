/**
 * A test server and a sandbox (HOME and one workspace under a fresh temp
 * root) per test, for suites that drive the built hooks through the host
 * simulator; background plugin processes of the sandbox are waited for
 * before it is removed.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { until } from '../capture/support/world.js';
import { pluginProcesses } from './detached.js';
import { startOvServer, type OvTestServer } from './ov-server/index.js';

export interface ServerSandbox {
  readonly server: OvTestServer;
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
}

export function useServerSandbox(prefix: string): ServerSandbox {
  let current: ServerSandbox | undefined;
  beforeEach(async () => {
    const server = await startOvServer();
    const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    current = { server, root, home: join(root, 'home'), workspace: join(root, 'ws') };
    mkdirSync(current.home);
    mkdirSync(current.workspace);
  });
  afterEach(async () => {
    if (current === undefined) return;
    const { server, root, home } = current;
    await until(() => pluginProcesses(home).length === 0, 20_000, 'background work').catch(() => undefined);
    await server.close();
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
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
