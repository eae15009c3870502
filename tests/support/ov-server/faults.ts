/**
 * Fault switches tests flip at runtime: latency, error bursts, hangs,
 * resets mid-response, an old server's context face, a missing recall
 * route, a hostile server's text (hostile.ts). (Down/up is the server's stop()/start(), on the same port.)
 *
 * Each request asks `decide()` once, before routing; counted faults are
 * consumed by the requests they hit, in arrival order.
 *
 * @module
 */
import { OvError } from './errors.js';
import type { RequestFilter } from './types.js';
import { matchesFilter } from './log.js';

export interface ErrorBurstSpec {
  /** HTTP status to answer with (500, 503, 429, 409, ...). */
  status: number;
  /** How many matching requests fail; default 1. */
  count?: number;
  match?: RequestFilter;
  /** Error code; defaults by status (INTERNAL, UNAVAILABLE, RESOURCE_EXHAUSTED, CONFLICT, ...). */
  code?: string;
  message?: string;
  /** For 409: `details.retryable` (default true, as for path-lock conflicts). */
  retryable?: boolean;
}

/** What the dispatcher must do with one request. */
export interface FaultDecision {
  latencyMs: number;
  error?: OvError;
  hang?: boolean;
  /** Run the handler, then write the headers and half the body and destroy the socket. */
  reset?: boolean;
}

interface Counted<T> {
  match: RequestFilter;
  remaining: number;
  spec: T;
}

const DEFAULT_CODE_BY_STATUS: Readonly<Record<number, string>> = {
  409: 'CONFLICT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export class Faults {
  /** Context-mode search answers 400 "extra: mode" like a server that predates the context face. */
  legacyContextFace = false;
  /** `POST /api/v1/search/recall` is an unknown route (404), like a server without it. */
  noRecallRoute = false;
  /** Every string of every answer ends in terminal escapes, bidi and tag characters (hostile.ts). */
  hostileText = false;

  private latencies: Array<{ match: RequestFilter; ms: number }> = [];
  private bursts: Array<Counted<ErrorBurstSpec>> = [];
  private hangs: Array<Counted<null>> = [];
  private resets: Array<Counted<null>> = [];

  /** Adds `ms` of delay to every matching request (all requests without `match`). */
  latency(ms: number, match: RequestFilter = {}): void {
    this.latencies.push({ match, ms });
  }

  /** The next `count` matching requests answer an error envelope without reaching a handler. */
  errorBurst(spec: ErrorBurstSpec): void {
    this.bursts.push({ match: spec.match ?? {}, remaining: spec.count ?? 1, spec });
  }

  /** Matching requests are read and never answered (until the server stops). */
  hang(match: RequestFilter = {}, count = Number.POSITIVE_INFINITY): void {
    this.hangs.push({ match, remaining: count, spec: null });
  }

  /** Matching requests are handled (state changes!), then the response is cut mid-body. */
  resetMidResponse(match: RequestFilter = {}, count = 1): void {
    this.resets.push({ match, remaining: count, spec: null });
  }

  clear(): void {
    this.latencies = [];
    this.bursts = [];
    this.hangs = [];
    this.resets = [];
    this.legacyContextFace = false;
    this.noRecallRoute = false;
    this.hostileText = false;
  }

  decide(method: string, path: string): FaultDecision {
    const request = { method, path, status: 0 };
    const latencyMs = this.latencies
      .filter((rule) => matchesFilter(request, { ...rule.match, status: undefined }))
      .reduce((sum, rule) => sum + rule.ms, 0);
    if (consume(this.hangs, request) !== undefined) return { latencyMs, hang: true };
    const burst = consume(this.bursts, request);
    if (burst !== undefined) return { latencyMs, error: burstError(burst.spec) };
    if (consume(this.resets, request) !== undefined) return { latencyMs, reset: true };
    return { latencyMs };
  }
}

/** Takes one use of the first live matching rule. */
function consume<T>(
  rules: Array<Counted<T>>,
  request: { method: string; path: string; status: number },
): Counted<T> | undefined {
  const rule = rules.find(
    (candidate) => candidate.remaining > 0 && matchesFilter(request, { ...candidate.match, status: undefined }),
  );
  if (rule !== undefined) rule.remaining -= 1;
  return rule;
}

function burstError(spec: ErrorBurstSpec): OvError {
  const code = spec.code ?? DEFAULT_CODE_BY_STATUS[spec.status] ?? 'UNKNOWN';
  const details = spec.status === 409 ? { retryable: spec.retryable ?? true, conflict_type: 'path_busy' } : undefined;
  return new OvError(code, spec.message ?? `Injected fault: ${code}`, details, spec.status);
}
