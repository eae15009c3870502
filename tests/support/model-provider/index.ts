/**
 * The one fake of the real-server suite: an OpenAI-compatible model provider
 * on 127.0.0.1 that the real OpenViking server is configured to use for its
 * embeddings and its VLM (`provider: openai`, `api_base: <url>/v1`), so the
 * server runs offline with no model keys. Deterministic (embedding.ts,
 * chat.ts) and logged: every request is kept, in order, with what kind of
 * call it was and the answer's gist, in memory and (optionally) as JSONL,
 * so a test can show that the server asked for an extraction and what it
 * was told to write.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerChat, type ChatKind } from './chat.js';
import { encodeEmbedding, hashedEmbedding, HASHED_DIMENSION } from './embedding.js';

export interface ProviderRequest {
  at: number;
  method: string;
  path: string;
  kind: ChatKind | 'embedding' | 'models' | 'unknown';
  body: Record<string, unknown>;
  /** The chat answer's content (or tool call), for the log. */
  answer?: unknown;
}

export interface ModelProviderOptions {
  /** Embedding dimension; the server's `embedding.dense.dimension` must match. */
  dimension?: number;
  /** Appends every request as one JSON line. */
  logFile?: string;
  port?: number;
}

export interface ModelProvider {
  /** `http://127.0.0.1:<port>/v1`, what `api_base` names. */
  readonly apiBase: string;
  readonly port: number;
  readonly dimension: number;
  /** Every request so far (copies), optionally of one kind. */
  requests(kind?: ProviderRequest['kind']): ProviderRequest[];
  stop(): Promise<void>;
}

export async function startModelProvider(options: ModelProviderOptions = {}): Promise<ModelProvider> {
  const dimension = options.dimension ?? HASHED_DIMENSION;
  const log: ProviderRequest[] = [];
  const record = (entry: ProviderRequest) => {
    log.push(entry);
    if (options.logFile !== undefined) appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`);
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => record(answer(request, body, response, dimension)));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}/v1`,
    port,
    dimension,
    requests: (kind) => structuredClone(kind === undefined ? log : log.filter((entry) => entry.kind === kind)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function answer(
  request: IncomingMessage,
  body: Record<string, unknown>,
  response: ServerResponse,
  dimension: number,
): ProviderRequest {
  const path = (request.url ?? '/').split('?')[0]!;
  const entry = { at: Date.now(), method: request.method ?? 'GET', path, body };
  if (request.method === 'POST' && path.endsWith('/embeddings')) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const data = inputs.map((input, index) => ({
      object: 'embedding',
      index,
      embedding: encodeEmbedding(hashedEmbedding(String(input ?? ''), dimension), body.encoding_format),
    }));
    sendJson(response, 200, { object: 'list', model: body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } });
    return { ...entry, kind: 'embedding' };
  }
  if (request.method === 'POST' && path.endsWith('/chat/completions')) {
    const chat = answerChat(body);
    sendChat(response, body, chat);
    return { ...entry, kind: chat.kind, answer: chat.message.content ?? chat.message.tool_calls };
  }
  if (path.endsWith('/models')) {
    sendJson(response, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'tests' }] });
    return { ...entry, kind: 'models' };
  }
  sendJson(response, 404, { error: { message: `no such route: ${path}`, type: 'invalid_request_error' } });
  return { ...entry, kind: 'unknown' };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** A `chat.completion`, or its SSE chunks when the request streams (`vlm.stream: true`). */
function sendChat(response: ServerResponse, body: Record<string, unknown>, chat: ReturnType<typeof answerChat>): void {
  const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  if (body.stream !== true) {
    sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: chat.message, finish_reason: chat.finishReason }],
      usage,
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const toolCalls = chat.message.tool_calls?.map((call, index) => ({ index, ...(call as object) }));
  response.write(
    chunk(
      { role: 'assistant', content: chat.message.content ?? '', ...(toolCalls ? { tool_calls: toolCalls } : {}) },
      null,
    ),
  );
  response.end(`${chunk({}, chat.finishReason)}data: [DONE]\n\n`);
}
