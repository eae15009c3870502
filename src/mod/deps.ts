/**
 * The stages' outside world (`StageDeps`, protocol/stage.ts) inside the hooks
 * module, so the module runs the hook's own rules (D30): the session's
 * environment view (env/sessionEnv.ts), the host's fetch as the transport
 * (httpTransport.ts), no process to spawn (the module never starts one:
 * replay, commit-stale and the resident stay with the hook commands), and
 * the log in the host's debug log (`$.ui.log(…, { to: 'debug' })`; the
 * plugin's own debug log file is the hook commands').
 *
 * `afterAnswer` work is collected, not run: the module runs it once the
 * answer is out (after.ts), against its file snapshot.
 *
 * @module
 */
import type { LogSettings, StageDeps } from '../protocol/stage.js';
import type { SessionEnv } from './env/sessionEnv.js';
import { debugNote } from './debugNote.js';
import type { Engine } from './host.js';
import { fetchTransport } from './httpTransport.js';

export interface ModuleDeps {
  deps: StageDeps;
  /** What the stage handed to `afterAnswer`, in order. */
  afterAnswer: Array<() => unknown>;
}

export function moduleDeps($: Engine, view: SessionEnv, cwd: string): ModuleDeps {
  const afterAnswer: Array<() => unknown> = [];
  const deps: StageDeps = {
    now: () => Date.now(),
    env: view.env,
    cwd,
    homeDir: view.homeDir,
    // Only what starts plugin processes reads it, and the module starts none.
    pluginRoot: view.env.CLAUDE_PLUGIN_ROOT ?? '',
    http: fetchTransport($),
    pid: 0,
    pipeAtomicBytes: 0,
    spawnDetached: () => false,
    runner: 'module',
    afterAnswer: (task) => void afterAnswer.push(task),
    log: moduleLogger($),
  };
  return { deps, afterAnswer };
}

/** The stages' logger, into the host's debug log: warnings always, debug lines once the `debug` knob says so. */
export function moduleLogger($: Engine): StageDeps['log'] {
  let settings: LogSettings | undefined;
  const write = (level: string, message: string, fields?: Record<string, unknown>) =>
    debugNote($, `${level}: ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  return {
    debug: (message, fields) => {
      if (settings?.debug === true) write('debug', message, fields);
    },
    warn: (message, fields) => write('warn', message, fields),
    configure: (given) => {
      settings = given;
    },
  };
}
