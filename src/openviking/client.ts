/**
 * The typed OpenViking client: one method per endpoint the plugin calls.
 *
 * Every method resolves to an `OvResult` and never throws, so a stage can
 * `await` it without a try/catch and a dead server costs one failed result.
 * The client sends one request per call and does not retry: whether to queue
 * a failure is the caller's decision, from `retryable` (retry.ts). It honours
 * the stage's deadline: no call starts after `deadlineAt`, and a running call
 * is cut when the deadline comes before its own timeout.
 *
 * Paths, query parameters, bodies and headers follow openviking-api.md §1.2
 * and §2 exactly; `X-OpenViking-Actor-Peer` goes only to non-session routes
 * (session routes ignore it; attribution there is the message's `peer_id`).
 *
 * @module
 */
import type { HttpMethod } from './http.js';
import type {
  AutoCommitPolicy,
  ClientOptions,
  CommitBody,
  ContextSearchBody,
  FindBody,
  LsOptions,
  OpenVikingClient,
  OvFailure,
  OvResult,
  RecallBody,
  SessionMessage,
} from './types.js';
import { failure, interpretResponse } from './envelope.js';
import { identityHeaders } from './identityHeaders.js';
import {
  readAddMessages,
  readCommit,
  readCommitPolicy,
  readContextSearch,
  readFind,
  readHealth,
  readLsEntries,
  readSessionContext,
  readSessionInfo,
  readSystemStatus,
  readTask,
  readText,
} from './shapes.js';
import { transportFailureCause, transportFailureKind } from './transportError.js';
import { errorMessage } from '../util/errors.js';

type QueryValue = string | number | boolean | undefined;

interface CallSpec<T> {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Session routes ignore the actor-peer header, so it is not sent there. */
  sessionRoute?: boolean;
  /** `/health` answers with a bare body. */
  bare?: boolean;
  timeoutMs?: number;
  read: (value: unknown) => T;
}

const API = '/api/v1';

/** Creates a client bound to one server, identity, transport and deadline. */
export function createOpenVikingClient(options: ClientOptions): OpenVikingClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const call = <T>(spec: CallSpec<T>) => performCall(options, baseUrl, spec);

  const sessionCall = <T>(sessionId: string, suffix: string, spec: Omit<CallSpec<T>, 'path' | 'sessionRoute'>) =>
    sessionId
      ? call({ ...spec, path: `${API}/sessions/${encodeURIComponent(sessionId)}${suffix}`, sessionRoute: true })
      : Promise.resolve(failure(0, 'BAD_REQUEST', 'session id is empty'));

  return {
    baseUrl,
    health: (timeoutMs?: number) => call({ method: 'GET', path: '/health', bare: true, timeoutMs, read: readHealth }),
    systemStatus: () => call({ method: 'GET', path: `${API}/system/status`, read: readSystemStatus }),
    ls: (uri: string, ls: LsOptions = {}) =>
      call({
        method: 'GET',
        path: `${API}/fs/ls`,
        query: {
          uri,
          recursive: ls.recursive,
          output: ls.output,
          simple: ls.simple,
          abs_limit: ls.absLimit,
          node_limit: ls.nodeLimit,
        },
        read: readLsEntries,
      }),
    read: (uri: string) => call({ method: 'GET', path: `${API}/content/read`, query: { uri }, read: readText }),
    searchContext: (body: ContextSearchBody, timeoutMs?: number) =>
      call({ method: 'POST', path: `${API}/search/search`, body, timeoutMs, read: readContextSearch }),
    recall: (body: RecallBody) => call({ method: 'POST', path: `${API}/search/recall`, body, read: readContextSearch }),
    find: (body: FindBody) => call({ method: 'POST', path: `${API}/search/find`, body, read: readFind }),
    getSession: (sessionId: string) =>
      sessionCall(sessionId, '', { method: 'GET', read: (v) => readSessionInfo(v, sessionId) }),
    addMessage: (sessionId: string, message: SessionMessage) =>
      sessionCall(sessionId, '/messages', {
        method: 'POST',
        body: message,
        read: (v) => readAddMessages(v, sessionId),
      }),
    addMessages: (sessionId: string, messages: SessionMessage[]) =>
      sessionCall(sessionId, '/messages/batch', {
        method: 'POST',
        body: { messages },
        read: (v) => readAddMessages(v, sessionId),
      }),
    commit: (sessionId: string, body: CommitBody = {}) =>
      sessionCall(sessionId, '/commit', { method: 'POST', body, read: (v) => readCommit(v, sessionId) }),
    getTask: (taskId: string) =>
      taskId
        ? call({ method: 'GET', path: `${API}/tasks/${encodeURIComponent(taskId)}`, read: (v) => readTask(v, taskId) })
        : Promise.resolve(failure(0, 'BAD_REQUEST', 'task id is empty')),
    setCommitPolicy: (sessionId: string, policy: AutoCommitPolicy) =>
      sessionCall(sessionId, '/config', {
        method: 'PATCH',
        body: { auto_commit_policy: policy },
        read: readCommitPolicy,
      }),
    sessionContext: (sessionId: string, tokenBudget: number) =>
      sessionCall(sessionId, '/context', {
        method: 'GET',
        query: { token_budget: tokenBudget },
        read: readSessionContext,
      }),
  };
}

async function performCall<T>(options: ClientOptions, baseUrl: string, spec: CallSpec<T>): Promise<OvResult<T>> {
  const perCallMs = spec.timeoutMs ?? options.timeoutMs;
  const remainingMs = options.deadlineAt === undefined ? Infinity : options.deadlineAt - options.now();
  if (remainingMs <= 0) return failure(0, 'DEADLINE', `stage deadline passed before ${spec.method} ${spec.path}`);
  const cutByDeadline = remainingMs < perCallMs;

  let body: string | undefined;
  try {
    body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  } catch (error) {
    return failure(0, 'BAD_REQUEST', `request body is not serialisable: ${errorMessage(error)}`);
  }

  let response;
  try {
    response = await options.http({
      method: spec.method,
      url: baseUrl + spec.path + queryString(spec.query),
      headers: buildHeaders(options, spec, body !== undefined),
      body,
      timeoutMs: Math.min(perCallMs, remainingMs),
    });
  } catch (error) {
    return redact(transportFailure(error, cutByDeadline, spec), options.apiKey);
  }

  const interpreted = interpretResponse(response, !spec.bare);
  if (!interpreted.ok) return redact(interpreted, options.apiKey);
  try {
    return { ok: true, status: interpreted.status, result: spec.read(interpreted.value) };
  } catch (error) {
    // ShapeError in practice; anything else thrown by a reader is reported the same way, never raised.
    const reason = `unexpected ${spec.path} response: ${errorMessage(error)}`;
    return redact(failure(interpreted.status, 'BAD_RESPONSE', reason), options.apiKey);
  }
}

function transportFailure(error: unknown, cutByDeadline: boolean, spec: CallSpec<unknown>): OvFailure {
  const cause = transportFailureCause(error);
  const failed = transportFailureOf(error, cutByDeadline, spec);
  return cause === undefined ? failed : { ...failed, cause };
}

function transportFailureOf(error: unknown, cutByDeadline: boolean, spec: CallSpec<unknown>): OvFailure {
  const where = `${spec.method} ${spec.path}`;
  switch (transportFailureKind(error)) {
    case 'timeout':
      return cutByDeadline
        ? failure(0, 'DEADLINE', `stage deadline reached during ${where}`)
        : failure(0, 'TIMEOUT', `${where} timed out: ${errorMessage(error)}`);
    case 'too_large':
      return failure(0, 'BAD_RESPONSE', `${where}: ${errorMessage(error)}`);
    case 'unsent':
      return { ...failure(0, 'NETWORK', `${where} failed: ${errorMessage(error)}`), unsent: true };
    default:
      return failure(0, 'NETWORK', `${where} failed: ${errorMessage(error)}`);
  }
}

function buildHeaders(options: ClientOptions, spec: CallSpec<unknown>, hasBody: boolean): Record<string, string> {
  return {
    'User-Agent': options.userAgent,
    Accept: 'application/json',
    ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    ...identityHeaders({
      apiKey: options.apiKey,
      account: options.account,
      user: options.user,
      ...(spec.sessionRoute ? {} : { actorPeer: options.actorPeer }),
    }),
  };
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** No failure message may carry the API key, whoever echoed it. */
function redact(result: OvFailure, apiKey: string | undefined): OvFailure {
  const key = apiKey?.trim();
  if (!key || !result.message.includes(key)) return result;
  return { ...result, message: result.message.split(key).join('***') };
}
