/**
 * OpenViking's error vocabulary: the code → HTTP status table
 * (`ERROR_CODE_TO_HTTP_STATUS`, contract §1.4), the thrown `OvError`, and the
 * `{status, result|error}` envelope (§1.3). Handlers throw; the dispatcher
 * turns the throw into the envelope, so no handler formats errors itself.
 *
 * @module
 */

const CODE_TO_STATUS: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  INVALID_URI: 400,
  UNSUPPORTED_URI: 400,
  UNSUPPORTED_MODE: 400,
  INVALID_FILTER: 400,
  SKILL_INVALID: 400,
  SKILL_CAPABILITY_UNAVAILABLE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  CONFLICT: 409,
  ABORTED: 409,
  WRITE_CONFLICT: 409,
  SESSION_EXPIRED: 410,
  FAILED_PRECONDITION: 412,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  INTERNAL_ERROR: 500,
  PROCESSING_ERROR: 500,
  EMBEDDING_FAILED: 500,
  VLM_FAILED: 500,
  NOT_INITIALIZED: 500,
  WRITE_FAILED: 500,
  REFRESH_FAILED: 500,
  RESTORE_WRITEBACK_PARTIAL: 500,
  AGENT_OUTPUT_INVALID: 500,
  UNKNOWN: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  MODEL_UNAVAILABLE: 503,
  BOT_RESTARTED: 503,
  NO_VECTOR_DB: 503,
  DEADLINE_EXCEEDED: 504,
};

/** HTTP status for an error code; unknown codes are 500 like the server's fallback. */
export function statusForCode(code: string): number {
  return CODE_TO_STATUS[code] ?? 500;
}

/** Every error code the server knows, for table-driven tests. */
export function knownErrorCodes(): string[] {
  return Object.keys(CODE_TO_STATUS);
}

/**
 * A domain error. `status` overrides the table only for framework errors
 * (405). `compact`: the envelope 0.5.2 writes for request validation and its
 * handlers' own `error_response` (no null keys, `details` only when given);
 * otherwise the raised-exception envelope, with `result`, `telemetry` and
 * `profile` null and `details` always an object (docs/host-facts.md F36).
 */
export class OvError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly status: number;
  compact = false;

  constructor(code: string, message: string, details?: Record<string, unknown>, status?: number) {
    super(message);
    this.code = code;
    this.details = details;
    this.status = status ?? statusForCode(code);
  }

  /** This error as a handler's `error_response` (no null keys). */
  asResponse(): this {
    this.compact = true;
    return this;
  }
}

export interface ErrorEnvelope {
  status: 'error';
  error: { code: string; message: string; details?: Record<string, unknown> };
  result?: null;
  telemetry?: null;
  profile?: null;
}

/**
 * A success envelope as 0.5.2 serialises it (docs/host-facts.md F36): most
 * routes dump the whole `Response` model, so `error`, `telemetry` and
 * `profile` are there as nulls; the routes that dump with `exclude_none`
 * (commit, `PATCH …/config`, search, find, recall, content/write) have only
 * `status` and `result` (`compact`).
 */
export function okEnvelope(result: unknown, compact = false): Record<string, unknown> {
  return compact ? { status: 'ok', result } : { status: 'ok', result, error: null, telemetry: null, profile: null };
}

export function errorEnvelope(
  code: string,
  message: string,
  details?: Record<string, unknown>,
  compact = true,
): ErrorEnvelope {
  if (!compact)
    return {
      status: 'error',
      result: null,
      error: { code, message, details: details ?? {} },
      telemetry: null,
      profile: null,
    };
  return { status: 'error', error: details === undefined ? { code, message } : { code, message, details } };
}

/** Shorthands for the errors handlers raise most. */
export const notFound = (message: string, details?: Record<string, unknown>): OvError =>
  new OvError('NOT_FOUND', message, details);
export const invalidArgument = (message: string, details?: Record<string, unknown>): OvError =>
  new OvError('INVALID_ARGUMENT', message, details);
export const invalidUri = (message: string): OvError => new OvError('INVALID_URI', message);
export const permissionDenied = (message: string): OvError => new OvError('PERMISSION_DENIED', message);
