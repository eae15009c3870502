/**
 * The request log: every request with method, path, query, headers (auth
 * included, so security tests can check what was sent), parsed body, final
 * status and timing, plus helpers to filter it and to poll for requests
 * that have not arrived yet.
 *
 * @module
 */
import type { LoggedRequest, RequestFilter } from './types.js';

export function matchesFilter(
  entry: Pick<LoggedRequest, 'method' | 'path' | 'status'>,
  filter: RequestFilter,
): boolean {
  if (filter.method !== undefined && filter.method.toUpperCase() !== entry.method) return false;
  if (filter.status !== undefined && filter.status !== entry.status) return false;
  if (filter.path === undefined) return true;
  return typeof filter.path === 'string' ? filter.path === entry.path : filter.path.test(entry.path);
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private nextSeq = 1;

  open(fields: Omit<LoggedRequest, 'seq' | 'status'>): LoggedRequest {
    const entry: LoggedRequest = { ...fields, seq: this.nextSeq++, status: 0 };
    this.entries.push(entry);
    return entry;
  }

  list(filter: RequestFilter = {}): LoggedRequest[] {
    return this.entries.filter((entry) => matchesFilter(entry, filter)).map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Resolves once `count` matching requests have been answered (status ≠ 0 or a fault recorded); rejects after `timeoutMs`. */
  async waitFor(filter: RequestFilter, count = 1, timeoutMs = 5000): Promise<LoggedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = this.list(filter).filter((entry) => entry.status !== 0 || entry.fault !== undefined);
      if (done.length >= count) return done;
      if (Date.now() > deadline) {
        throw new Error(
          `waited ${timeoutMs} ms for ${count} request(s) matching ${describe(filter)}, saw ${done.length}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function describe(filter: RequestFilter): string {
  return `${filter.method ?? '*'} ${filter.path === undefined ? '*' : String(filter.path)}`;
}
