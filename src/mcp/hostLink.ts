/**
 * The proxy's side of the host link: newline-delimited JSON-RPC on stdin
 * and stdout (jsonRpc.ts). Each request is answered by the proxy's
 * `answer` under an AbortController of its own: `notifications/cancelled`
 * aborts it, and an aborted request gets no reply (MCP cancellation), nor
 * does one cut by shutdown. Nothing is written once the link is closing.
 *
 * Lifecycle: the link ends when stdin ends (the host closes it at exit;
 * requests already received get up to `STDIN_END_DRAIN_MS` to be answered,
 * so a script that pipes requests and EOF still gets its answers), on a
 * stdin or stdout error (EPIPE: the host is gone), or on `close()`
 * (signals, via main.ts), which abandons in-flight requests at once. Either
 * way `onClose` (the upstream session's close) runs once.
 *
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import {
  createLineSplitter,
  errorLine,
  notificationLine,
  parseMessage,
  resultLine,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from './jsonRpc.js';
import type { ProxyLog } from './log.js';

/** How long the end of stdin waits for requests already received. */
export const STDIN_END_DRAIN_MS = 1000;

/** What the proxy does with what the host sends. */
export interface HostHandlers {
  /** The result of `request`; a throw is answered as `toRpcError` says. */
  answer(request: JsonRpcRequest, signal: AbortSignal): Promise<unknown>;
  toRpcError(error: unknown): JsonRpcErrorObject;
  /** Runs once, when the link closes. */
  onClose(): Promise<void>;
}

export class HostLink {
  /** Resolves once the link has closed. */
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  private closing = false;
  private draining = false;
  private handlers: HostHandlers | undefined;
  private readonly inFlight = new Map<JsonRpcId, AbortController>();
  /** Requests still being answered (stdin's end waits for them, briefly). */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly stdout: Writable,
    private readonly log: ProxyLog,
  ) {
    this.closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));
    stdout.once('error', () => void this.close());
  }

  /** Sends a notification to the host (the upstream's, or the proxy's own list-changed). */
  notify(notification: JsonRpcNotification): void {
    this.write(notificationLine(notification));
  }

  /** Reads the host's messages from `stdin` and answers them with `handlers`. */
  listen(stdin: Readable, handlers: HostHandlers): void {
    this.handlers = handlers;
    const feed = createLineSplitter((line) => this.onLine(line));
    stdin.on('data', (chunk: Buffer | string) => feed(chunk));
    stdin.once('end', () => void this.drainThenClose());
    stdin.once('close', () => void this.drainThenClose());
    stdin.once('error', () => void this.close());
  }

  /** Abandons what is in flight and closes (idempotent). */
  async close(): Promise<void> {
    if (this.closing) return this.closed;
    this.closing = true;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    await this.handlers?.onClose();
    this.resolveClosed();
    return this.closed;
  }

  private write(line: string): void {
    if (!this.closing) this.stdout.write(line);
  }

  private onLine(line: string): void {
    const message = parseMessage(line);
    switch (message.kind) {
      case 'request': {
        const handling = this.answerRequest(message.request);
        this.pending.add(handling);
        void handling.finally(() => this.pending.delete(handling));
        return;
      }
      case 'notification':
        this.onNotification(message.notification);
        return;
      case 'invalid':
        this.write(errorLine(message.id, message.error));
        return;
      case 'response':
        return;
    }
  }

  private async answerRequest(request: JsonRpcRequest): Promise<void> {
    const handlers = this.handlers;
    if (handlers === undefined) return;
    const controller = new AbortController();
    this.inFlight.set(request.id, controller);
    try {
      const result = await handlers.answer(request, controller.signal);
      if (!controller.signal.aborted) this.write(resultLine(request.id, result));
    } catch (error) {
      // A cancelled request gets no reply (MCP cancellation); neither does one cut by shutdown.
      if (!controller.signal.aborted) this.write(errorLine(request.id, handlers.toRpcError(error)));
    } finally {
      if (this.inFlight.get(request.id) === controller) this.inFlight.delete(request.id);
    }
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.inFlight.get(id)?.abort();
      return;
    }
    // `notifications/initialized` and the rest concern the host–proxy link only.
    this.log.debug('host notification', { method: notification.method });
  }

  /** stdin ended: answer what was already asked (a script may pipe requests and EOF), then close. */
  private async drainThenClose(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    const budget = new Promise<void>((resolve) => setTimeout(resolve, STDIN_END_DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...this.pending]), budget]);
    await this.close();
  }
}
