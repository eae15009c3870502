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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallPurpose, ChatMessage, ModelCall, ModelReply, ModelScript } from './chat-types.js';
import { encodeJsonReply, encodeStreamedReply } from './openai-wire.js';
import {
  asSentReply,
  listenLoopback,
  readBody,
  replyResolver,
  requestFields,
  runScript,
  sendEvents,
  sendJson,
} from './scripted-http.js';

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

/** Starts the fake model on 127.0.0.1:0. Close it in the test's teardown. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  let script: ModelScript = options.script ?? (() => undefined);
  const log: ModelCall[] = [];
  const sent = new Map<number, ModelReply>();
  const resolveReply = replyResolver('call_fake_');

  const fallbackFor = (call: ModelCall): ModelReply =>
    options.fallback ??
    (call.purpose === 'summary' ? { text: 'Summary: the user and the assistant talked.' } : { text: 'done' });

  const handleChat = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const fields = requestFields(request, await readBody(request), log.length + 1);
    const { body } = fields;
    const purposeHeader = fields.headers['x-agent-purpose'] ?? '';
    const call: ModelCall = {
      ...fields,
      purpose: purposeOf(purposeHeader),
      purposeHeader,
      messages: Array.isArray(body?.messages) ? (body.messages as ChatMessage[]) : [],
    };
    log.push(call);
    const reply = resolveReply(runScript(script, call, fallbackFor));
    sent.set(call.seq, asSentReply(reply));
    if ('httpStatus' in reply) {
      sendJson(response, reply.httpStatus, {
        error: { message: reply.errorMessage ?? 'scripted failure', type: 'fake_error' },
      });
      return;
    }
    const envelope = {
      id: `chatcmpl-fake-${call.seq}`,
      model: String(body?.model ?? 'fake-model'),
      created: Math.floor(call.at / 1000),
    };
    if (call.stream) sendEvents(response, encodeStreamedReply(reply, envelope));
    else sendJson(response, 200, encodeJsonReply(reply, envelope));
  };

  const server = await listenLoopback(async (request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.method === 'POST' && path.endsWith('/chat/completions')) return handleChat(request, response);
    if (request.method === 'GET' && path.endsWith('/models')) {
      sendJson(response, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }] });
      return;
    }
    sendJson(response, 404, { error: { message: `no route ${request.method} ${path}` } });
  });
  const port = server.port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    chatUrl: `http://127.0.0.1:${port}/v1/chat/completions`,
    port,
    calls: (purpose) => (purpose ? log.filter((call) => call.purpose === purpose) : [...log]),
    replies: () => new Map(sent),
    setScript: (next) => {
      script = next;
    },
    close: () => server.close(),
  };
}
