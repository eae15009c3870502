/**
 * The one answer to "is this failure worth trying again later?".
 *
 * The capture worker queues a retryable failure for replay and drops the
 * rest; the prompt stage only logs. Both ask here, so a status can never be
 * retried by one path and dropped by another. Rules (openviking-api.md §1.5):
 * no HTTP answer (status 0) → retry; 408, 429, 5xx → retry; 409 only when the
 * server marked it `details.retryable: true` (a busy path lock); every other
 * 4xx, including 400/401/403/404, → never. Two local exceptions, both with
 * status 0 or 2xx: a reply the client could not use (`BAD_RESPONSE`; the same
 * bytes would come back) and a request it refused to send (`BAD_REQUEST`,
 * e.g. an empty session id) are never retried.
 *
 * @module
 */

/** What the classifier looks at; an `OvFailure` fits. */
export interface RetryFacts {
  status: number;
  code?: string;
  details?: Record<string, unknown>;
}

const LOCAL_PERMANENT_CODES = new Set(['BAD_RESPONSE', 'BAD_REQUEST']);

/** True when the same request may succeed later. */
export function isRetryable(failure: RetryFacts): boolean {
  if (failure.code !== undefined && LOCAL_PERMANENT_CODES.has(failure.code)) return false;
  const { status } = failure;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return true;
  if (status === 409) return failure.details?.['retryable'] === true;
  return false;
}
