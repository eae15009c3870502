/**
 * The hook's logger: JSON lines in the opt-in debug log, never to stdout.
 *
 * Debug lines are written only when the `debug` knob is on, to the
 * `debugLogPath` knob (default `~/.openviking/logs/codebuddy-hooks.log`;
 * dir 0700, file 0600 whatever existed there: a looser file is made
 * private, a symlink at the path is not followed), from any of the knob's sources (the environment or
 * ovcli.conf's `plugin.codebuddy`). The hook entry never reads the
 * configuration itself (its start-up is the product's latency), so the
 * logger learns the two knobs when the stage loads the configuration
 * (`configure`, session/stageContext.ts `loadStageConfig`) and holds the
 * lines written before that in memory. A process that ends without ever
 * reading its configuration (the guard, a prompt the resident answered)
 * writes what it held at exit by the environment's `OPENVIKING_DEBUG` and
 * `OPENVIKING_DEBUG_LOG` alone (`flush`). Warnings go to the debug log too
 * and, as one line, to stderr at once: on exit 0 every host ignores a
 * hook's stderr except in its own debug log, so nothing reaches the model.
 * Field values under secret-looking keys are replaced before anything is
 * written; long strings are clipped.
 *
 * @module
 */
import { expandHome } from '../config/configFile.js';
import { DEFAULT_DEBUG_LOG_PATH, parseSwitch } from '../config/scalars.js';
import type { LogSettings, Logger } from '../protocol/stage.js';
import { appendPrivateFileSync } from '../store/fsUtil.js';
import { printable } from '../util/printable.js';

export interface LoggerHost {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  now: () => number;
  pid: number;
  /** Where a warning's one-line summary goes (process.stderr in production). */
  writeStderr: (line: string) => void;
}

/** A logger that can be told its settings late and flushed at exit. */
export interface HookLogger extends Logger {
  configure(settings: LogSettings): void;
  /** Writes the lines still held, by the environment's settings when none were configured. */
  flush(): void;
}

const SECRET_KEY = /key|token|secret|passw|authori[sz]ation|cookie|credential/i;
const MAX_FIELD_CHARS = 2_000;
/** Lines held before the settings are known; older ones are dropped past this. */
const MAX_HELD_LINES = 500;

/** The two knobs as the environment alone sets them (the `debug` and `debugLogPath` knobs' own parsing). */
export function envLogSettings(env: Readonly<Record<string, string | undefined>>, homeDir: string): LogSettings {
  const path = env.OPENVIKING_DEBUG_LOG?.trim();
  return {
    debug: parseSwitch(env.OPENVIKING_DEBUG) ?? false,
    debugLogPath: expandHome(path ? path : DEFAULT_DEBUG_LOG_PATH, homeDir),
  };
}

export function createLogger(host: LoggerHost): HookLogger {
  let settings: LogSettings | undefined;
  let held: string[] = [];
  const write = (lines: readonly string[]): void => {
    if (settings?.debug === true && lines.length > 0) appendLines(settings.debugLogPath, lines);
  };
  const append = (level: 'debug' | 'warn', message: string, fields?: Record<string, unknown>): void => {
    if (settings !== undefined && !settings.debug) return;
    // JSON escapes C0 controls; DEL, C1, bidi and tag characters from a server's words it writes raw (util/printable.ts).
    const line = printable(
      JSON.stringify({
        ts: new Date(host.now()).toISOString(),
        pid: host.pid,
        level,
        message,
        ...redactFields(fields),
      }),
    );
    if (settings !== undefined) return write([line]);
    held.push(line);
    if (held.length > MAX_HELD_LINES) held.shift();
  };
  return {
    debug: (message, fields) => append('debug', message, fields),
    warn: (message, fields) => {
      append('warn', message, fields);
      swallow(() => host.writeStderr(`openviking: ${printable(message)}\n`));
    },
    configure: (next) => {
      settings = next;
      write(held);
      held = [];
    },
    flush: () => {
      if (held.length === 0) return;
      settings ??= envLogSettings(host.env, host.homeDir);
      write(held);
      held = [];
    },
  };
}

/** A copy of `fields` with secret-looking keys masked and long strings clipped. */
export function redactFields(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (key === '__proto__') continue;
    safe[key] = SECRET_KEY.test(key) ? '[redacted]' : clipValue(value);
  }
  return safe;
}

function clipValue(value: unknown): unknown {
  return typeof value === 'string' && value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}…` : value;
}

/** Private whatever was there before (a looser file is made 0600, a symlink at the path is not followed: store/fsUtil.ts). */
function appendLines(path: string, lines: readonly string[]): void {
  swallow(() => appendPrivateFileSync(path, `${lines.join('\n')}\n`));
}

/** Logging must never fail a hook: a full disk or a read-only home is ignored. */
function swallow(write: () => void): void {
  try {
    write();
  } catch {
    // The write is the try's only statement; a failed log line is dropped.
  }
}
