/**
 * A scripted OpenAI-compatible chat-completions server for driving the real
 * CodeBuddy CLI without a real model. It listens on 127.0.0.1 (port 0),
 * answers `POST …/chat/completions` in SSE or JSON, picks each reply with a
 * script (turn by turn), and logs every request in full (headers + body) so
 * scenarios can assert on exactly what reached the model — hook contexts,
 * tool results, the tool list.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CallPurpose, ChatMessage, ModelCall, ModelReply, ModelScript } from './chat-types.js';
import { encodeJsonReply, encodeStreamedReply, type ResolvedReply } from './openai-wire.js';

export interface FakeModelOptions {
  /** Picks the reply; returning undefined falls through to `fallback`. */
  script?: ModelScript;
  /** Reply when the script has none; default `{text:'done'}` (summary calls get a summary text). */
  fallback?: ModelReply;
}

export interface FakeModel {
  /** e.g. `http://127.0.0.1:41234/v1` (CODEBUDDY_BASE_URL style). */
  baseUrl: string;
  /** e.g. `http://127.0.0.1:41234/v1/chat/completions` (models.json `url`). */
  chatUrl: string;
  port: number;
  /** Every call so far, in arrival order, optionally filtered by purpose. */
  calls(purpose?: CallPurpose): ModelCall[];
  /** The replies sent, keyed by call seq. */
  replies(): Map<number, ModelReply>;
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

function purposeOf(header: string): CallPurpose {
  if (header === 'conversation') return 'conversation';
  if (header.startsWith('subagent')) return 'subagent';
  if (header.includes('summary') || header.includes('compact')) return 'summary';
  return 'other';
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // not JSON: logged as an unparsed body
  }
}

function toolNamesOf(body: Record<string, unknown> | undefined): string[] {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.map((tool: unknown) => {
    const fn = (tool as { function?: { name?: unknown }; name?: unknown }) ?? {};
    return String(fn.function?.name ?? fn.name ?? '');
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (piece: Buffer) => chunks.push(piece));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts the fake model on 127.0.0.1:0. Close it in the test's teardown. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  let script: ModelScript = options.script ?? (() => undefined);
  const log: ModelCall[] = [];
  const sent = new Map<number, ModelReply>();
  const sockets = new Set<Socket>();
  let toolCallCounter = 0;

  const resolveReply = (reply: ModelReply): ResolvedReply | { httpStatus: number; errorMessage?: string } => {
    if ('httpStatus' in reply || 'text' in reply) return reply;
    return {
      toolCalls: reply.toolCalls.map((call) => ({
        id: call.id ?? `call_fake_${++toolCallCounter}`,
        name: call.name,
        arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {}),
      })),
    };
  };

  const fallbackFor = (call: ModelCall): ModelReply =>
    options.fallback ?? (call.purpose === 'summary' ? { text: 'Summary: the user and the assistant talked.' } : { text: 'done' });

  const handleChat = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const raw = await readBody(request);
    const body = parseJsonObject(raw);
    const headers = flatHeaders(request);
    const purposeHeader = headers['x-agent-purpose'] ?? '';
    const call: ModelCall = {
      seq: log.length + 1,
      at: Date.now(),
      method: request.method ?? '',
      url: request.url ?? '',
      headers,
      body,
      purpose: purposeOf(purposeHeader),
      purposeHeader,
      stream: body?.stream === true,
      messages: Array.isArray(body?.messages) ? (body.messages as ChatMessage[]) : [],
      toolNames: toolNamesOf(body),
    };
    log.push(call);
    let chosen: ModelReply;
    try {
      chosen = script(call) ?? fallbackFor(call);
    } catch (error) {
      chosen = { httpStatus: 500, errorMessage: `fake-model script threw: ${String(error)}` };
    }
    const reply = resolveReply(chosen);
    sent.set(call.seq, 'toolCalls' in reply ? { toolCalls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.arguments })) } : reply);
    if ('httpStatus' in reply) {
      response.writeHead(reply.httpStatus, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: reply.errorMessage ?? 'scripted failure', type: 'fake_error' } }));
      return;
    }
    const envelope = { id: `chatcmpl-fake-${call.seq}`, model: String(body?.model ?? 'fake-model'), created: Math.floor(call.at / 1000) };
    if (!call.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(encodeJsonReply(reply, envelope)));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const event of encodeStreamedReply(reply, envelope)) response.write(event);
    response.end();
  };

  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.method === 'POST' && path.endsWith('/chat/completions')) {
      handleChat(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error) } }));
      });
      return;
    }
    if (request.method === 'GET' && path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] }));
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `no route ${request.method} ${path}` } }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    chatUrl: `http://127.0.0.1:${port}/v1/chat/completions`,
    port,
    calls: (purpose) => (purpose ? log.filter((call) => call.purpose === purpose) : [...log]),
    replies: () => new Map(sent),
    setScript: (next) => {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
