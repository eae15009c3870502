/**
 * A `StageDeps` for calling stages and the dispatcher in-process: a fixed
 * clock, an explicit env, a recording logger, and an HTTP transport and a
 * spawner that fail loudly unless the test supplies real ones (point `http`
 * at a real 127.0.0.1 server with `socketHttpTransport`; never mock a module).
 *
 * @module
 */
import type { StageDeps, Logger } from '../../../src/protocol/stage.js';

export interface LoggedLine {
  level: 'debug' | 'warn';
  message: string;
  fields?: Record<string, unknown>;
}

export interface TestDeps extends StageDeps {
  /** Every log call, in order. */
  readonly logged: LoggedLine[];
  /** Every spawnDetached call, in order. */
  readonly spawned: { args: readonly string[]; stdin: string }[];
  /** Resolves when every `afterAnswer` task given so far is done. */
  settled(): Promise<void>;
}

export function createTestDeps(overrides: Partial<StageDeps> = {}): TestDeps {
  const logged: LoggedLine[] = [];
  const spawned: { args: readonly string[]; stdin: string }[] = [];
  const deferred: Promise<unknown>[] = [];
  const log: Logger = {
    debug: (message, fields) => logged.push({ level: 'debug', message, ...(fields ? { fields } : {}) }),
    warn: (message, fields) => logged.push({ level: 'warn', message, ...(fields ? { fields } : {}) }),
  };
  return {
    now: () => 1_700_000_000_000,
    env: {},
    cwd: '/nonexistent/workspace',
    homeDir: '/nonexistent/home',
    pluginRoot: '/nonexistent/plugin',
    http: async (request) => {
      throw new Error(`test deps: no HTTP transport given (request to ${request.url})`);
    },
    pid: 4242,
    pipeAtomicBytes: 0,
    spawnDetached: (args, stdin) => {
      spawned.push({ args, stdin });
      return true;
    },
    afterAnswer: (task) => {
      deferred.push(Promise.resolve().then(task));
    },
    log,
    ...overrides,
    logged,
    spawned,
    settled: async () => {
      await Promise.all(deferred);
    },
  };
}
