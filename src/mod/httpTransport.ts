/**
 * The plugin's HTTP seam (openviking/http.ts `HttpTransport`) over the
 * host's `$.http.fetch`, for the hooks module (D30). The host's fetch honours
 * the CLI's proxies and extra CAs itself (measured: `HTTP_PROXY`,
 * `NO_PROXY`, `NODE_EXTRA_CA_CERTS`), so nothing of D20 is done here.
 *
 * `$.http.fetch` has no timeout or abort: a server that accepts and never
 * answers holds the call 30 s, and `claude -p` does not exit before it ends
 * (measured on both pinned versions). So each request races the module's own deadline
 * (`timeoutMs`, the client's cut at the stage's deadline; deadline.ts) and
 * loses no more than that; and
 * while a request to an origin is still hanging past its deadline, every
 * later request to that origin fails at once as a timeout, so prompts do not
 * pile up hung calls (nor a longer exit). The memory ends when the hung call
 * does.
 *
 * How a failure reads (openviking/transportError.ts): a refused connection
 * or unknown host `unsent` (nothing reached the server), the deadline
 * `timeout`, a `{ deny }` (a module above ours refused the op) `unsent`,
 * anything else `network`.
 *
 * @module
 */
import type { HttpTransport } from '../openviking/http.js';
import { transportError } from '../openviking/transportError.js';
import { LATE, within } from './deadline.js';
import type { Engine } from './host.js';

/** Origins with a request still hanging past its deadline, and that request. */
const hanging = new Map<string, Promise<unknown>>();

const NEVER_SENT = /failed: (?:ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN)\b/;

export function fetchTransport($: Engine): HttpTransport {
  return async (request) => {
    const origin = originOf(request.url);
    if (hanging.has(origin))
      throw transportError(
        'timeout',
        `an earlier request to ${origin} is still without an answer; not asking again until it ends`,
      );
    const answered = $.http
      .fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
      })
      .then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
    const first = await within($, answered, request.timeoutMs);
    if (first === LATE) {
      hanging.set(origin, answered);
      void answered.then(() => {
        if (hanging.get(origin) === answered) hanging.delete(origin);
      });
      throw transportError('timeout', `no complete answer within ${request.timeoutMs} ms`);
    }
    if ('error' in first) {
      const message = first.error instanceof Error ? first.error.message : String(first.error);
      throw transportError(
        NEVER_SENT.test(message) ? 'unsent' : message.includes('aborted') ? 'timeout' : 'network',
        message,
      );
    }
    const answer = first.answer;
    if ('deny' in answer) throw transportError('unsent', `the host refused the request: ${answer.deny}`);
    return { status: answer.status, headers: answer.headers, body: answer.text };
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
