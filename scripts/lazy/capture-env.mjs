// src/openviking/narrow.ts
var ShapeError = class extends Error {
  constructor(path, expected, actual) {
    super(`${path}: expected ${expected}, got ${describe(actual)}`);
    this.path = path;
    this.name = "ShapeError";
  }
  path;
};
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function record(value, path) {
  if (!isRecord(value)) throw new ShapeError(path, "object", value);
  return value;
}
function requiredString(source, key, path) {
  const value = source[key];
  if (typeof value !== "string") throw new ShapeError(`${path}.${key}`, "string", value);
  return value;
}
function optionalString(source, key, path) {
  return optional(source, key, path, "string", (v) => typeof v === "string");
}
function optionalNumber(source, key, path) {
  return optional(source, key, path, "number", (v) => typeof v === "number" && Number.isFinite(v));
}
function optionalBoolean(source, key, path) {
  return optional(source, key, path, "boolean", (v) => typeof v === "boolean");
}
function listOf(source, key, path, item) {
  const value = source[key];
  if (value === void 0 || value === null) return [];
  return arrayOf(value, `${path}.${key}`, item);
}
function arrayOf(value, path, item) {
  if (!Array.isArray(value)) throw new ShapeError(path, "array", value);
  return value.map((entry, index) => item(entry, `${path}[${index}]`));
}
function optional(source, key, path, expected, test) {
  const value = source[key];
  if (value === void 0 || value === null) return void 0;
  if (!test(value)) throw new ShapeError(`${path}.${key}`, expected, value);
  return value;
}
function compact(value) {
  const out = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== void 0) out[key] = entry;
  return out;
}

// src/config/configFile.ts
var MAX_CONFIG_BYTES = 1024 * 1024;

// src/config/knobs.ts
var SECOND = 1e3;
var KNOB_TABLE = {
  enabled: { env: "OPENVIKING_MEMORY_ENABLED", type: "bool", default: true, description: "Master switch; off makes every hook a no-op." },
  autoRecall: { env: "OPENVIKING_AUTO_RECALL", type: "bool", default: true, description: "Inject relevant memories before each prompt." },
  autoCapture: { env: "OPENVIKING_AUTO_CAPTURE", type: "bool", default: true, description: "Send each finished turn to OpenViking and commit it." },
  autoProfile: { env: "OPENVIKING_AUTO_PROFILE", type: "bool", default: true, description: "Inject the user profile and memory listing at session start." },
  recallLimit: { env: "OPENVIKING_RECALL_LIMIT", type: "int", default: 10, min: 1, max: 100, description: "Most memories injected per prompt." },
  scoreThreshold: { env: "OPENVIKING_SCORE_THRESHOLD", type: "float", default: 0.35, min: 0, max: 1, description: "Lowest relevance score a recalled memory may have." },
  minQueryLength: { env: "OPENVIKING_MIN_QUERY_LENGTH", type: "int", default: 3, min: 0, max: 1e3, description: "Prompts shorter than this (characters) skip recall." },
  recallMaxTokens: { env: "OPENVIKING_RECALL_MAX_TOKENS", type: "int", default: 1600, min: 64, max: 32e3, description: "Server-side token budget of the recall block (context search `max_tokens`)." },
  recallDedupTurns: { env: "OPENVIKING_RECALL_DEDUP_TURNS", type: "int", default: 5, min: 0, max: 100, description: "Turns during which the server does not repeat a memory it already injected (0: off)." },
  recallTokenBudget: { env: "OPENVIKING_RECALL_TOKEN_BUDGET", type: "int", default: 2e3, min: 200, max: 32e3, description: "Token budget of the client-side fallback recall block." },
  recallMaxContentChars: { env: "OPENVIKING_RECALL_MAX_CONTENT_CHARS", type: "int", default: 500, min: 50, max: 2e4, description: "Characters kept per memory in the fallback recall block." },
  profileTokenBudget: { env: "OPENVIKING_PROFILE_TOKEN_BUDGET", type: "int", default: 6e3, min: 500, max: 64e3, description: "Token budget of the session-start profile block." },
  resumeContextBudget: { env: "OPENVIKING_RESUME_CONTEXT_BUDGET", type: "int", default: 32e3, min: 1024, max: 128e3, description: "Token budget asked of the server for the archive overview on resume and compact." },
  promptDeadlineMs: { env: "OPENVIKING_PROMPT_DEADLINE_MS", type: "int", default: 2 * SECOND, min: 200, max: 30 * SECOND, description: "Whole-stage deadline of recall; past it the prompt goes on without memories." },
  startDeadlineMs: { env: "OPENVIKING_START_DEADLINE_MS", type: "int", default: 3 * SECOND, min: 200, max: 30 * SECOND, description: "Whole-stage deadline of the session-start profile injection." },
  syncCaptureDeadlineMs: { env: "OPENVIKING_SYNC_CAPTURE_DEADLINE_MS", type: "int", default: 20 * SECOND, min: SECOND, max: 120 * SECOND, description: "Deadline of the synchronous capture before compaction." },
  timeoutMs: { env: "OPENVIKING_TIMEOUT_MS", type: "int", default: 15 * SECOND, min: SECOND, max: 300 * SECOND, description: "Per-request timeout of background work (capture worker, replay)." },
  commitTokenThreshold: { env: "OPENVIKING_COMMIT_TOKEN_THRESHOLD", type: "int", default: 2e4, min: 1e3, max: 1e7, description: "Pending server tokens that trigger a commit after a turn." },
  commitKeepRecentCount: { env: "OPENVIKING_COMMIT_KEEP_RECENT_COUNT", type: "int", default: 10, min: 0, max: 1e4, description: "Newest messages a threshold commit leaves out of the archive." },
  captureAssistantTurns: { env: "OPENVIKING_CAPTURE_ASSISTANT_TURNS", type: "bool", default: true, description: "Capture the assistant's turns too, not only the user's." },
  captureToolMaxChars: { env: "OPENVIKING_CAPTURE_TOOL_MAX_CHARS", type: "int", default: 1e6, min: 1e3, max: 1e6, description: "Characters of a tool output kept when capturing (the server externalises big ones)." },
  bypassSession: { env: "OPENVIKING_BYPASS_SESSION", type: "bool", default: false, description: "Neither recall nor capture in this session." },
  bypassPatterns: { env: "OPENVIKING_BYPASS_SESSION_PATTERNS", type: "csv", default: [], description: "Comma-separated globs (`*`, `**`); a session whose id or cwd matches is bypassed." },
  pendingReplayLimit: { env: "OPENVIKING_PENDING_REPLAY_LIMIT", type: "int", default: 50, min: 0, max: 1e3, description: "Queued writes replayed per session start." },
  pendingReplayBudgetMs: { env: "OPENVIKING_PENDING_REPLAY_BUDGET_MS", type: "int", default: 1500, min: 0, max: 60 * SECOND, description: "Time a replay run may spend before it stops." },
  pendingMaxRetries: { env: "OPENVIKING_PENDING_MAX_RETRIES", type: "int", default: 3, min: 0, max: 100, description: "Replay attempts before a queued write moves to the dead-letter folder (with the reason; never deleted silently)." },
  pendingTtlDays: { env: "OPENVIKING_PENDING_TTL_DAYS", type: "int", default: 7, min: 1, max: 365, description: "Age (days) after which a queued write moves to the dead-letter folder." },
  lockTimeoutMs: { env: "OPENVIKING_LOCK_TIMEOUT_MS", type: "int", default: SECOND, min: 0, max: 60 * SECOND, description: "Wait for the per-session state lock before skipping the stage." },
  debug: { env: "OPENVIKING_DEBUG", type: "bool", default: false, description: "Write a JSON-lines debug log." },
  debugLogPath: { env: "OPENVIKING_DEBUG_LOG", type: "path", default: "~/.openviking/logs/codebuddy-hooks.log", description: "Where the debug log goes." }
};

// src/openviking/retry.ts
var LOCAL_PERMANENT_CODES = /* @__PURE__ */ new Set(["BAD_RESPONSE", "BAD_REQUEST"]);
function isRetryable(failure2) {
  if (failure2.code !== void 0 && LOCAL_PERMANENT_CODES.has(failure2.code)) return false;
  const { status } = failure2;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return true;
  if (status === 409) return failure2.details?.["retryable"] === true;
  return false;
}

// src/openviking/envelope.ts
var MAX_QUOTED_BODY = 200;
function failure(status, code, message, details) {
  const base = { ok: false, status, code, message };
  const withDetails = details ? { ...base, details } : base;
  return { ...withDetails, retryable: isRetryable(withDetails) };
}
function interpretResponse(response, enveloped) {
  const { status } = response;
  const parsed = parseJson(response.body);
  const isSuccessStatus = status >= 200 && status < 300;
  if (!isSuccessStatus || enveloped && isRecord(parsed.value) && parsed.value["status"] === "error") {
    return errorFailure(status, parsed.value, response.body);
  }
  if (!parsed.ok) return failure(status, "BAD_RESPONSE", `response is not JSON: ${quote(response.body)}`);
  const body = parsed.value;
  const value = enveloped && isRecord(body) ? body["result"] ?? body : body;
  return { ok: true, status, value };
}
function errorFailure(status, body, text) {
  const error = isRecord(body) && isRecord(body["error"]) ? body["error"] : body;
  const code = isRecord(error) && typeof error["code"] === "string" ? error["code"] : `HTTP_${status}`;
  const details = isRecord(error) && isRecord(error["details"]) ? error["details"] : void 0;
  return failure(status, code, errorText(status, error, text), details);
}
function errorText(status, error, text) {
  if (isRecord(error)) {
    if (typeof error["message"] === "string" && error["message"]) return error["message"];
    if (typeof error["detail"] === "string" && error["detail"]) return error["detail"];
  }
  return text.trim() ? `HTTP ${status}: ${quote(text)}` : `HTTP ${status}`;
}
function quote(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_QUOTED_BODY ? `${flat.slice(0, MAX_QUOTED_BODY)}\u2026` : flat;
}
function parseJson(text) {
  if (!text.trim()) return { ok: false, value: void 0 };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, value: void 0 };
  }
}

// src/openviking/shapes.ts
function readHealth(value) {
  const body = record(value, "health");
  const s = (key) => optionalString(body, key, "health");
  return compact({
    status: s("status"),
    healthy: optionalBoolean(body, "healthy", "health"),
    version: s("version"),
    auth_mode: s("auth_mode"),
    account_id: s("account_id"),
    user_id: s("user_id"),
    role: s("role")
  });
}
function readSystemStatus(value) {
  const body = record(value, "result");
  return compact({ initialized: optionalBoolean(body, "initialized", "result"), user: optionalString(body, "user", "result") });
}
function readLsEntries(value) {
  return arrayOf(value, "result", (item, path) => {
    if (typeof item === "string") return { uri: item };
    const entry = record(item, path);
    return compact({
      uri: requiredString(entry, "uri", path),
      name: optionalString(entry, "name", path),
      rel_path: optionalString(entry, "rel_path", path),
      isDir: optionalBoolean(entry, "isDir", path),
      size: optionalNumber(entry, "size", path),
      modTime: optionalString(entry, "modTime", path),
      abstract: optionalString(entry, "abstract", path)
    });
  });
}
function readText(value) {
  if (typeof value !== "string") throw new ShapeError("result", "string", value);
  return value;
}
function readContextEntry(value, path) {
  const entry = record(value, path);
  const s = (key) => optionalString(entry, key, path);
  return compact({
    uri: requiredString(entry, "uri", path),
    category: s("category"),
    score: optionalNumber(entry, "score", path),
    detail: s("detail"),
    text: s("text"),
    origin: s("origin")
  });
}
function readContextSearch(value) {
  const body = record(value, "result");
  const stats = body["stats"];
  if (stats !== void 0 && stats !== null && !isRecord(stats)) throw new ShapeError("result.stats", "object", stats);
  return compact({
    entries: listOf(body, "entries", "result", readContextEntry),
    rendered: optionalString(body, "rendered", "result") ?? "",
    digest: optionalString(body, "digest", "result") ?? "",
    stats: stats ?? void 0
  });
}
function readFindItem(value, path) {
  const item = record(value, path);
  return compact({
    uri: requiredString(item, "uri", path),
    context_type: optionalString(item, "context_type", path),
    level: optionalNumber(item, "level", path),
    score: optionalNumber(item, "score", path),
    abstract: optionalString(item, "abstract", path)
  });
}
function readFind(value) {
  const body = record(value, "result");
  return compact({
    memories: listOf(body, "memories", "result", readFindItem),
    resources: listOf(body, "resources", "result", readFindItem),
    skills: listOf(body, "skills", "result", readFindItem),
    total: optionalNumber(body, "total", "result")
  });
}
function readAddMessages(value, sessionId) {
  const body = record(value, "result");
  const n = (key) => optionalNumber(body, key, "result");
  return compact({
    session_id: optionalString(body, "session_id", "result") ?? sessionId,
    message_count: n("message_count"),
    added: n("added"),
    pending_tokens: n("pending_tokens")
  });
}
function readSessionInfo(value, sessionId) {
  const body = record(value, "result");
  const n = (key) => optionalNumber(body, key, "result");
  const nullableTime = (key) => body[key] === null ? null : optionalString(body, key, "result");
  return compact({
    session_id: optionalString(body, "session_id", "result") ?? sessionId,
    message_count: n("message_count"),
    total_message_count: n("total_message_count"),
    commit_count: n("commit_count"),
    pending_tokens: n("pending_tokens"),
    last_commit_at: nullableTime("last_commit_at"),
    last_message_at: nullableTime("last_message_at")
  });
}
function readCommit(value, sessionId) {
  const body = record(value, "result");
  const nullable = (key) => body[key] === null ? null : optionalString(body, key, "result");
  return compact({
    session_id: optionalString(body, "session_id", "result") ?? sessionId,
    status: requiredString(body, "status", "result"),
    task_id: nullable("task_id"),
    archive_uri: nullable("archive_uri"),
    archived: optionalBoolean(body, "archived", "result"),
    reason: optionalString(body, "reason", "result")
  });
}
function readSessionContext(value) {
  const body = record(value, "result");
  return compact({
    latest_archive_overview: optionalString(body, "latest_archive_overview", "result"),
    estimatedTokens: optionalNumber(body, "estimatedTokens", "result")
  });
}

// src/openviking/transportError.ts
function transportFailureKind(error) {
  const kind = error?.kind;
  return kind === "timeout" || kind === "too_large" ? kind : "network";
}
function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

// src/openviking/client.ts
var API = "/api/v1";
function createOpenVikingClient(options) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const call = (spec) => performCall(options, baseUrl, spec);
  const sessionCall = (sessionId, suffix, spec) => sessionId ? call({ ...spec, path: `${API}/sessions/${encodeURIComponent(sessionId)}${suffix}`, sessionRoute: true }) : Promise.resolve(failure(0, "BAD_REQUEST", "session id is empty"));
  return {
    baseUrl,
    health: () => call({ method: "GET", path: "/health", bare: true, read: readHealth }),
    systemStatus: () => call({ method: "GET", path: `${API}/system/status`, read: readSystemStatus }),
    ls: (uri, ls = {}) => call({
      method: "GET",
      path: `${API}/fs/ls`,
      query: {
        uri,
        recursive: ls.recursive,
        output: ls.output,
        simple: ls.simple,
        abs_limit: ls.absLimit,
        node_limit: ls.nodeLimit
      },
      read: readLsEntries
    }),
    read: (uri) => call({ method: "GET", path: `${API}/content/read`, query: { uri }, read: readText }),
    searchContext: (body, timeoutMs) => call({ method: "POST", path: `${API}/search/search`, body, timeoutMs, read: readContextSearch }),
    recall: (body) => call({ method: "POST", path: `${API}/search/recall`, body, read: readContextSearch }),
    find: (body) => call({ method: "POST", path: `${API}/search/find`, body, read: readFind }),
    getSession: (sessionId) => sessionCall(sessionId, "", { method: "GET", read: (v) => readSessionInfo(v, sessionId) }),
    addMessage: (sessionId, message) => sessionCall(sessionId, "/messages", { method: "POST", body: message, read: (v) => readAddMessages(v, sessionId) }),
    addMessages: (sessionId, messages) => sessionCall(sessionId, "/messages/batch", {
      method: "POST",
      body: { messages },
      read: (v) => readAddMessages(v, sessionId)
    }),
    commit: (sessionId, body = {}) => sessionCall(sessionId, "/commit", { method: "POST", body, read: (v) => readCommit(v, sessionId) }),
    sessionContext: (sessionId, tokenBudget) => sessionCall(sessionId, "/context", { method: "GET", query: { token_budget: tokenBudget }, read: readSessionContext })
  };
}
async function performCall(options, baseUrl, spec) {
  const perCallMs = spec.timeoutMs ?? options.timeoutMs;
  const remainingMs = options.deadlineAt === void 0 ? Infinity : options.deadlineAt - options.now();
  if (remainingMs <= 0) return failure(0, "DEADLINE", `stage deadline passed before ${spec.method} ${spec.path}`);
  const cutByDeadline = remainingMs < perCallMs;
  let body;
  try {
    body = spec.body === void 0 ? void 0 : JSON.stringify(spec.body);
  } catch (error) {
    return failure(0, "BAD_REQUEST", `request body is not serialisable: ${errorMessage(error)}`);
  }
  let response;
  try {
    response = await options.http({
      method: spec.method,
      url: baseUrl + spec.path + queryString(spec.query),
      headers: buildHeaders(options, spec, body !== void 0),
      body,
      timeoutMs: Math.min(perCallMs, remainingMs)
    });
  } catch (error) {
    return redact(transportFailure(error, cutByDeadline, spec), options.apiKey);
  }
  const interpreted = interpretResponse(response, !spec.bare);
  if (!interpreted.ok) return redact(interpreted, options.apiKey);
  try {
    return { ok: true, status: interpreted.status, result: spec.read(interpreted.value) };
  } catch (error) {
    const reason = `unexpected ${spec.path} response: ${errorMessage(error)}`;
    return redact(failure(interpreted.status, "BAD_RESPONSE", reason), options.apiKey);
  }
}
function transportFailure(error, cutByDeadline, spec) {
  const where = `${spec.method} ${spec.path}`;
  switch (transportFailureKind(error)) {
    case "timeout":
      return cutByDeadline ? failure(0, "DEADLINE", `stage deadline reached during ${where}`) : failure(0, "TIMEOUT", `${where} timed out: ${errorMessage(error)}`);
    case "too_large":
      return failure(0, "BAD_RESPONSE", `${where}: ${errorMessage(error)}`);
    default:
      return failure(0, "NETWORK", `${where} failed: ${errorMessage(error)}`);
  }
}
function buildHeaders(options, spec, hasBody) {
  const headers = { "User-Agent": options.userAgent, Accept: "application/json" };
  if (hasBody) headers["Content-Type"] = "application/json";
  const set = (name, value) => {
    const trimmed = value?.trim();
    if (trimmed) headers[name] = trimmed;
  };
  set("Authorization", options.apiKey?.trim() ? `Bearer ${options.apiKey.trim()}` : void 0);
  set("X-OpenViking-Account", options.account);
  set("X-OpenViking-User", options.user);
  if (!spec.sessionRoute) set("X-OpenViking-Actor-Peer", options.actorPeer);
  return headers;
}
function queryString(query) {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== void 0) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}
function redact(result, apiKey) {
  const key = apiKey?.trim();
  if (!key || !result.message.includes(key)) return result;
  return { ...result, message: result.message.split(key).join("***") };
}

// src/store/paths.ts
import { isAbsolute, join } from "node:path";
var DATA_DIR_VARIABLES = ["CODEBUDDY_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA", "OPENVIKING_CODEBUDDY_DATA_DIR"];
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== void 0) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join(homeDir, value.slice(2)) : value;
  return isAbsolute(expanded) ? expanded : void 0;
}

// .codebuddy-plugin/plugin.json
var plugin_default = {
  name: "openviking",
  version: "0.1.0",
  description: "Long-term memory for CodeBuddy Code: recalls what matters before each prompt and captures every turn into an OpenViking server.",
  author: {
    name: "openviking-codebuddy contributors"
  },
  license: "Apache-2.0",
  keywords: [
    "memory",
    "openviking",
    "context",
    "recall",
    "mcp"
  ],
  userConfig: {
    server_url: {
      description: "OpenViking server URL, e.g. http://127.0.0.1:1933 (empty: use env or ~/.openviking/ovcli.conf)",
      sensitive: false
    },
    api_key: {
      description: "OpenViking user API key (not the server's root key); empty for a local dev-mode server",
      sensitive: true
    },
    account: {
      description: "OpenViking account id (trusted-mode servers; optional)",
      sensitive: false
    },
    user: {
      description: "OpenViking user id (trusted-mode servers; optional)",
      sensitive: false
    }
  }
};

// src/version.ts
var PLUGIN_VERSION = plugin_default.version;
var USER_AGENT = `openviking-codebuddy/${PLUGIN_VERSION}`;

// src/session/stageContext.ts
function clientFor(config, deps, timeoutMs, deadlineAt) {
  const { credentials } = config;
  return createOpenVikingClient({
    baseUrl: credentials.baseUrl,
    apiKey: credentials.apiKey,
    account: credentials.account,
    user: credentials.user,
    actorPeer: credentials.peerId,
    userAgent: USER_AGENT,
    http: deps.http,
    now: deps.now,
    timeoutMs,
    deadlineAt
  });
}

// src/capture/env.ts
function captureEnvFor(deps, config, deadlineMs, crashPoint) {
  const deadlineAt = deps.now() + deadlineMs;
  const env = {
    dataDir: resolveDataDir(deps.env, deps.homeDir),
    settings: config.settings,
    client: clientFor(config, deps, Math.min(config.settings.timeoutMs, deadlineMs), deadlineAt),
    now: deps.now,
    log: deps.log,
    deadlineAt
  };
  if (crashPoint !== void 0) env.crashPoint = crashPoint;
  return env;
}
export {
  captureEnvFor
};
