/**
 * Turns one HTTP answer into "the result" or a failure, per the envelope
 * rules of openviking-api.md §1.3.
 *
 * Failure is a non-2xx status or `status == "error"` in the body, never
 * `result.status` (values like `accepted`/`skipped` are domain states). The
 * success value is `body.result ?? body`. `/health` is not enveloped, so its
 * body is the value. Error bodies may be OpenViking's envelope, an older
 * server's `{"detail": …}`, or a proxy's HTML page; all become a code and a
 * short message.
 *
 * @module
 */
import type { HttpResponse } from './http.js';
import type { OvFailure } from './types.js';
import { isRecord } from '../util/json.js';
import { isRetryable } from './retry.js';

export type Interpreted = { ok: true; status: number; value: unknown } | OvFailure;

/** Longest slice of a non-JSON error body quoted in a message. */
const MAX_QUOTED_BODY = 200;

/** Builds a failure whose `retryable` comes from the one classifier. */
export function failure(status: number, code: string, message: string, details?: Record<string, unknown>): OvFailure {
  const base = { ok: false as const, status, code, message };
  const withDetails = details ? { ...base, details } : base;
  return { ...withDetails, retryable: isRetryable(withDetails) };
}

export function interpretResponse(response: HttpResponse, enveloped: boolean): Interpreted {
  const { status } = response;
  const parsed = parseJson(response.body);
  const isSuccessStatus = status >= 200 && status < 300;
  if (!isSuccessStatus || (enveloped && isRecord(parsed.value) && parsed.value['status'] === 'error')) {
    return errorFailure(status, parsed.value, response.body);
  }
  if (!parsed.ok) return failure(status, 'BAD_RESPONSE', `response is not JSON: ${quote(response.body)}`);
  const body = parsed.value;
  const value = enveloped && isRecord(body) ? (body['result'] ?? body) : body;
  return { ok: true, status, value };
}

function errorFailure(status: number, body: unknown, text: string): OvFailure {
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : body;
  const code = isRecord(error) && typeof error['code'] === 'string' ? error['code'] : `HTTP_${status}`;
  const details = isRecord(error) && isRecord(error['details']) ? error['details'] : undefined;
  return failure(status, code, errorText(status, error, text), details);
}

function errorText(status: number, error: unknown, text: string): string {
  if (isRecord(error)) {
    if (typeof error['message'] === 'string' && error['message']) return error['message'];
    if (typeof error['detail'] === 'string' && error['detail']) return error['detail'];
  }
  return text.trim() ? `HTTP ${status}: ${quote(text)}` : `HTTP ${status}`;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_QUOTED_BODY ? `${flat.slice(0, MAX_QUOTED_BODY)}…` : flat;
}

function parseJson(text: string): { ok: boolean; value: unknown } {
  if (!text.trim()) return { ok: false, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: an error page from a proxy, or a broken server. The caller reports it.
    return { ok: false, value: undefined };
  }
}
