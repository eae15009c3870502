/**
 * The doctor's vocabulary: a check is one thing the user can fix, with a
 * verdict, the facts behind it and, when it is not green, the exact fix.
 * No runtime code.
 *
 * @module
 */

/** `fail` makes the doctor exit non-zero; `warn` does not; `info` is a plain fact. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info';

export interface Check {
  /** Stable id for scripts (`--json`): `config`, `server`, `identity`, `mcp`, `data-dir`, `queue`, `activity`, `resident`, `hooks`. */
  id: string;
  title: string;
  status: CheckStatus;
  /** Human-readable facts, one per line; secrets are already masked. */
  lines: string[];
  /** What to do, when the status is not `pass`/`info`. */
  fix?: string;
  /** Machine-readable facts for `--json` (never a secret). */
  data?: Record<string, unknown>;
}

export interface DoctorReport {
  ok: boolean;
  version: string;
  checks: Check[];
}
