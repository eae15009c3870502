/**
 * The proxy's diagnostics: JSON lines on stderr, never stdout.
 *
 * stdout belongs to the JSON-RPC stream; one stray byte there breaks the
 * host's parser. CodeBuddy keeps an MCP server's stderr in its own log, so
 * warnings go there always and debug lines only with `OPENVIKING_DEBUG`.
 * Every line passes through a redactor that blanks the current API key,
 * whatever echoed it.
 *
 * @module
 */

import { printable } from '../util/printable.js';

export interface ProxyLog {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface StderrLogOptions {
  write: (line: string) => void;
  now: () => number;
  debugEnabled: () => boolean;
  /** Strings that must never appear in a line (the API key). */
  secrets: () => ReadonlyArray<string | undefined>;
}

const REDACTED = '[redacted]';

/** Replaces every occurrence of each non-trivial secret. */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let clean = text;
  for (const secret of secrets) if (secret && secret.length >= 4) clean = clean.split(secret).join(REDACTED);
  return clean;
}

export function createStderrLog(options: StderrLogOptions): ProxyLog {
  const emit = (level: 'debug' | 'warn', message: string, fields?: Record<string, unknown>) => {
    let line: string;
    try {
      line = JSON.stringify({
        ts: new Date(options.now()).toISOString(),
        level,
        source: 'openviking-mcp-proxy',
        message,
        ...fields,
      });
    } catch {
      // Unserialisable fields: keep the message alone.
      line = JSON.stringify({
        ts: new Date(options.now()).toISOString(),
        level,
        source: 'openviking-mcp-proxy',
        message,
      });
    }
    // JSON escapes C0 controls; DEL, C1, bidi and tag characters from a server's words it writes raw (util/printable.ts).
    options.write(`${printable(redact(line, options.secrets()))}\n`);
  };
  return {
    debug: (message, fields) => {
      if (options.debugEnabled()) emit('debug', message, fields);
    },
    warn: (message, fields) => emit('warn', message, fields),
  };
}

/** A log that drops everything (tests that do not look at logs). */
export const SILENT_LOG: ProxyLog = Object.freeze({ debug: () => undefined, warn: () => undefined });
