/**
 * What a thrown value says, read the same way everywhere: its one-line
 * message for a log, a notice or a failure result, and the `code` of a
 * Node system error (`ENOENT`, `ECONNREFUSED`) to branch on. A `catch`
 * receives `unknown`, so nothing here assumes an `Error`.
 *
 * @module
 */

/** A one-line message for any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a Node system error (`'ENOENT'`), or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` is a system error with one of `codes`. */
export function hasErrorCode(error: unknown, ...codes: readonly string[]): boolean {
  const code = errorCode(error);
  return code !== undefined && codes.includes(code);
}
