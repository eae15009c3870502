/**
 * The hook's logger: JSON lines in the opt-in debug log, never to stdout.
 *
 * Debug lines are written only when OPENVIKING_DEBUG is on, to
 * OPENVIKING_DEBUG_LOG or `~/.openviking/logs/codebuddy-hooks.log` (dir 0700,
 * file 0600). Warnings go to the debug log too and, as one line, to stderr:
 * on exit 0 every host ignores a hook's stderr except in its own debug log,
 * so nothing reaches the model. Field values under secret-looking keys are
 * replaced before anything is written; long strings are clipped.
 *
 * @module
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from './deps.js';

export interface LoggerHost {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  now: () => number;
  pid: number;
  /** Where a warning's one-line summary goes (process.stderr in production). */
  writeStderr: (line: string) => void;
}

const SECRET_KEY = /key|token|secret|passw|authori[sz]ation|cookie|credential/i;
const MAX_FIELD_CHARS = 2_000;

/** True when OPENVIKING_DEBUG is `1`, `true`, `yes` or `on` (any case). */
export function isDebugOn(env: Readonly<Record<string, string | undefined>>): boolean {
  return /^(1|true|yes|on)$/i.test(env.OPENVIKING_DEBUG?.trim() ?? '');
}

/** The debug log's path: OPENVIKING_DEBUG_LOG, else under ~/.openviking/logs. */
export function debugLogPath(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const configured = env.OPENVIKING_DEBUG_LOG?.trim();
  return configured ? configured : join(homeDir, '.openviking', 'logs', 'codebuddy-hooks.log');
}

export function createLogger(host: LoggerHost): Logger {
  const debugOn = isDebugOn(host.env);
  const path = debugLogPath(host.env, host.homeDir);
  const append = (level: 'debug' | 'warn', message: string, fields?: Record<string, unknown>): void => {
    if (!debugOn) return;
    const line = JSON.stringify({ ts: new Date(host.now()).toISOString(), pid: host.pid, level, message, ...redactFields(fields) });
    appendLine(path, line);
  };
  return {
    debug: (message, fields) => append('debug', message, fields),
    warn: (message, fields) => {
      append('warn', message, fields);
      swallow(() => host.writeStderr(`openviking: ${message}\n`));
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

function appendLine(path: string, line: string): void {
  swallow(() => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    appendFileSync(path, `${line}\n`, { mode: 0o600 });
  });
}

/** Logging must never fail a hook: a full disk or a read-only home is ignored. */
function swallow(write: () => void): void {
  try {
    write();
  } catch {
    // The write is the try's only statement; a failed log line is dropped.
  }
}
