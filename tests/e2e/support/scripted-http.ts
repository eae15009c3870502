/**
 * The plumbing both scripted model servers share (OpenAI-compatible for
 * CodeBuddy, Anthropic Messages for Claude Code): a loopback listener whose
 * close drops kept-alive sockets, request body/header readers, and turning a
 * script's ModelReply into a reply with tool-call ids assigned.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ModelCall, ModelReply, ModelScript } from './chat-types.js';
import type { ResolvedReply } from './openai-wire.js';

export type ScriptedOutcome = ResolvedReply | { httpStatus: number; errorMessage?: string };

export function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // not JSON: logged as an unparsed body
  }
}

/** The fields of a recorded model call that come straight from the HTTP request (both wire formats). */
export function requestFields(
  request: IncomingMessage,
  raw: string,
  seq: number,
): Pick<ModelCall, 'seq' | 'at' | 'method' | 'url' | 'headers' | 'body' | 'stream' | 'toolNames'> {
  const body = parseJsonObject(raw);
  return {
    seq,
    at: Date.now(),
    method: request.method ?? '',
    url: request.url ?? '',
    headers: flatHeaders(request),
    body,
    stream: body?.stream === true,
    toolNames: toolNamesOf(body),
  };
}

/** Tool names of a request body: OpenAI `{function:{name}}` or Anthropic `{name}` entries. */
export function toolNamesOf(body: Record<string, unknown> | undefined): string[] {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.map((tool: unknown) => {
    const fn = (tool as { function?: { name?: unknown }; name?: unknown }) ?? {};
    return String(fn.function?.name ?? fn.name ?? '');
  });
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (piece: Buffer) => chunks.push(piece));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Assigns `<prefix><n>` ids to tool calls that have none and serialises their arguments. */
export function replyResolver(idPrefix: string): (reply: ModelReply) => ScriptedOutcome {
  let counter = 0;
  return (reply) => {
    if ('httpStatus' in reply || 'text' in reply) return reply;
    return {
      toolCalls: reply.toolCalls.map((call) => ({
        id: call.id ?? `${idPrefix}${++counter}`,
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
      })),
    };
  };
}

/** What was sent, in the script's own vocabulary (for `replies()`). */
export function asSentReply(outcome: ScriptedOutcome): ModelReply {
  return 'toolCalls' in outcome
    ? { toolCalls: outcome.toolCalls.map((call) => ({ id: call.id, name: call.name, args: call.arguments })) }
    : outcome;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendEvents(response: ServerResponse, events: string[]): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const event of events) response.write(event);
  response.end();
}

export interface LoopbackServer {
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:0; a handler's rejection becomes a 500. */
export async function listenLoopback(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The script's reply for `call`, the fallback when it has none, a 500 when it throws. */
export function runScript(
  script: ModelScript,
  call: ModelCall,
  fallbackFor: (call: ModelCall) => ModelReply,
): ModelReply {
  try {
    return script(call) ?? fallbackFor(call);
  } catch (error) {
    return { httpStatus: 500, errorMessage: `fake-model script threw: ${String(error)}` };
  }
}
