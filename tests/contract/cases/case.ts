/**
 * The vocabulary of a contract case: what it pins (`covers`: the plugin's
 * calls, `METHOD /path` with `{…}` for path parameters, or `mcp <method>` /
 * `mcp tool <name>`), the auth modes it runs in, and its body, a function
 * of the target that throws (an `expect`) when the server breaks the
 * property. Plus the envelope checks every case shares (openviking-api.md
 * §1.3, as 0.5.2 answers: docs/host-facts.md F36).
 *
 * @module
 */
import { expect } from 'vitest';
import type { Answer, ContractTarget, Mode } from '../target.js';

export interface ContractCase {
  name: string;
  covers: readonly string[];
  /** Default: both. */
  modes?: readonly Mode[];
  run(target: ContractTarget): Promise<void>;
}

/** A 200 `{status:"ok", result}` envelope (`error`, `telemetry`, `profile` absent or null); its result. */
export function okResult<T = any>(answer: Answer, what = 'the answer'): T {
  expect(answer.status, `${what}: ${answer.text.slice(0, 400)}`).toBe(200);
  expect(answer.body?.status, what).toBe('ok');
  for (const key of ['error', 'telemetry', 'profile'])
    expect(answer.body[key] ?? null, `${what}: ${key} is absent or null`).toBeNull();
  return answer.body.result as T;
}

/** An error envelope `{status:"error", error:{code, message}}` with this HTTP status and code; its error. */
export function errorOf(answer: Answer, status: number, code: string, what = 'the answer'): Record<string, any> {
  expect(answer.status, `${what}: ${answer.text.slice(0, 400)}`).toBe(status);
  expect(answer.body?.status, what).toBe('error');
  expect(answer.body.error?.code, what).toBe(code);
  expect(typeof answer.body.error.message, what).toBe('string');
  expect(answer.body.result ?? null, `${what}: no result`).toBeNull();
  return answer.body.error as Record<string, any>;
}

/** A request-validation 400: INVALID_ARGUMENT naming `field` in `details.validation_errors[].loc`. */
export function validationErrorOf(answer: Answer, field: string, what = 'the answer'): Record<string, any> {
  const error = errorOf(answer, 400, 'INVALID_ARGUMENT', what);
  const locs = (error.details?.validation_errors ?? []).map((entry: { loc: unknown[] }) => entry.loc.join('.'));
  expect(locs.some((loc: string) => loc.split('.').includes(field)) || error.message.includes(field), what).toBe(true);
  return error;
}
