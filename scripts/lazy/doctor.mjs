// src/config/configFile.ts
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

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
var FORBIDDEN_KEYS = /* @__PURE__ */ new Set(["__proto__", "constructor", "prototype"]);
function readSmallTextFile(path) {
  let size;
  try {
    size = statSync(path).size;
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw error;
  }
  if (size > MAX_CONFIG_BYTES) throw new Error(`file is ${size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit`);
  return readFileSync(path, "utf8");
}
function loadConfigFile(path, shownAs, readFile3) {
  let text2;
  try {
    text2 = readFile3(path);
  } catch (error) {
    return refused(path, shownAs, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (text2 === void 0) return { path, exists: false };
  if (text2.length > MAX_CONFIG_BYTES) return refused(path, shownAs, `is larger than ${MAX_CONFIG_BYTES} bytes`);
  if (!text2.trim()) return refused(path, shownAs, "is empty");
  let forbidden;
  let value;
  try {
    value = JSON.parse(text2, (key, entry) => {
      if (FORBIDDEN_KEYS.has(key)) forbidden ??= key;
      return entry;
    });
  } catch (error) {
    return refused(path, shownAs, `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (forbidden !== void 0) return refused(path, shownAs, `contains the forbidden key "${forbidden}"`);
  if (!isRecord(value)) return refused(path, shownAs, "is not a JSON object");
  return { path, exists: true, value };
}
function refused(path, shownAs, reason) {
  return { path, exists: true, warning: `${shownAs} ${reason}; ignoring it` };
}
function expandHome(path, homeDir) {
  if (path === "~") return homeDir;
  if (path.startsWith("~/")) return join(homeDir, path.slice(2));
  return isAbsolute(path) ? path : resolve(homeDir, path);
}
function displayPath(path, homeDir) {
  const home = homeDir.endsWith("/") ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

// src/config/credentials.ts
import { join as join2 } from "node:path";
var DEFAULT_BASE_URL = "http://127.0.0.1:1933";
var ENV_CREDENTIAL_NAMES = [
  "OPENVIKING_URL",
  "OPENVIKING_BASE_URL",
  "OPENVIKING_MCP_URL",
  "OPENVIKING_BEARER_TOKEN",
  "OPENVIKING_API_KEY",
  "OPENVIKING_ACCOUNT",
  "OPENVIKING_USER",
  "OPENVIKING_PEER_ID"
];
var USER_CONFIG_KEYS = ["server_url", "api_key", "account", "user"];
var CLI_CREDENTIAL_KEYS = ["url", "api_key", "account", "account_id", "user", "user_id", "actor_peer_id", "peer_id"];
function resolveCredentials(input) {
  const { env, homeDir } = input;
  const warnings = [];
  const { cliFile, ovFile } = loadCredentialFiles(input);
  for (const file of [cliFile, ovFile]) if (file.warning) warnings.push(file.warning);
  const cli = FileFields.of(cliFile, homeDir, warnings);
  const ov = FileFields.of(ovFile, homeDir, warnings);
  const ovServer = ov.section("server");
  const ovHarness = ov.section("codebuddy");
  const userConfig = readUserConfig(env);
  const useCliOnly = credentialMode(env) === "cli" || credentialMode(env) === "auto" && !anyExplicit(env, userConfig) && cli.hasAny(CLI_CREDENTIAL_KEYS);
  const fromEnv = (name) => [`env:${name}`, text(env[name])];
  const fromUser = (key) => [`userConfig:${key}`, userConfig[key]];
  const chain = (explicit, fromCli, fromOv) => useCliOnly ? fromCli : [...explicit, ...fromCli, ...fromOv];
  const sources = {};
  const pick = (field, candidates) => {
    for (const [source, value] of candidates) {
      if (value === void 0) continue;
      sources[field] = source;
      return value;
    }
    return void 0;
  };
  const urlCandidates = [
    ...useCliOnly ? [] : [fromEnv("OPENVIKING_URL"), fromEnv("OPENVIKING_BASE_URL"), fromUser("server_url")],
    cli.get("url"),
    ovServer.get("url"),
    derivedServerUrl(ovServer)
  ];
  const baseUrl = pick("baseUrl", validUrls(urlCandidates, warnings)) ?? DEFAULT_BASE_URL;
  sources.baseUrl ??= "default";
  const apiKey = pick(
    "apiKey",
    chain(
      [fromEnv("OPENVIKING_BEARER_TOKEN"), fromEnv("OPENVIKING_API_KEY"), fromUser("api_key")],
      [cli.get("api_key")],
      [ovHarness.get("apiKey"), ovServer.get("root_api_key")]
    )
  );
  const account = pick(
    "account",
    chain([fromEnv("OPENVIKING_ACCOUNT"), fromUser("account")], [cli.get("account"), cli.get("account_id")], [ovHarness.get("accountId")])
  );
  const user = pick(
    "user",
    chain([fromEnv("OPENVIKING_USER"), fromUser("user")], [cli.get("user"), cli.get("user_id")], [ovHarness.get("userId")])
  );
  const peerId = pick(
    "peerId",
    chain([fromEnv("OPENVIKING_PEER_ID")], [cli.get("actor_peer_id"), cli.get("peer_id")], [ovHarness.get("peerId"), ovHarness.get("peer_id")])
  );
  const mcpUrl = pick("mcpUrl", useCliOnly ? [] : validUrls([fromEnv("OPENVIKING_MCP_URL")], warnings)) ?? `${baseUrl}/mcp`;
  sources.mcpUrl ??= "derived:baseUrl";
  const rootKeyOnly = sources.apiKey !== void 0 && sources.apiKey === ovServer.sourceOf("root_api_key");
  if (rootKeyOnly) {
    warnings.push(
      `the only API key found is server.root_api_key in ${displayPath(ovFile.path, homeDir)}; OpenViking refuses root keys on memory APIs (except on trusted-mode servers). Set a user key in the plugin option api_key, OPENVIKING_API_KEY or ovcli.conf.`
    );
  }
  const credentials = {
    baseUrl,
    mcpUrl,
    ...definedOnly({ apiKey, account, user, peerId }),
    sources,
    rootKeyOnly,
    files: [cliFile, ovFile].filter((file) => file.exists).map((file) => file.path)
  };
  return { credentials, warnings, cliFile };
}
function credentialMode(env) {
  const raw = (text(env["OPENVIKING_CREDENTIAL_SOURCE"]) ?? text(env["OPENVIKING_CREDENTIALS_SOURCE"]) ?? "auto").toLowerCase();
  if (raw === "env" || raw === "environment") return "env";
  if (raw === "cli" || raw === "ovcli" || raw === "file" || raw === "config") return "cli";
  return "auto";
}
function readUserConfig(env) {
  const values = {};
  for (const key of USER_CONFIG_KEYS) {
    const raw = text(env[`CODEBUDDY_PLUGIN_OPTION_${key.toUpperCase()}`]) ?? text(env[`CODEBUDDY_PLUGIN_OPTION_${key}`]);
    if (raw !== void 0 && !/^\$\{user_config\.[^}]*\}$/.test(raw)) values[key] = raw;
  }
  return values;
}
function loadCredentialFiles({ env, homeDir, readFile: readFile3 }) {
  const cliOverride = text(env["OPENVIKING_CLI_CONFIG_FILE"]);
  const ovOverride = text(env["OPENVIKING_CONFIG_FILE"]);
  const load = (override, fallbackName) => {
    const path = expandHome(override ?? join2("~", ".openviking", fallbackName), homeDir);
    return loadConfigFile(path, displayPath(path, homeDir), readFile3);
  };
  const ovFile = load(ovOverride, "ov.conf");
  if (ovOverride !== void 0 && cliOverride === void 0 && looksLikeOvcli(ovFile.value)) {
    return { cliFile: ovFile, ovFile: { path: ovFile.path, exists: false } };
  }
  return { cliFile: load(cliOverride, "ovcli.conf"), ovFile };
}
function looksLikeOvcli(value) {
  if (!value || isRecord(value["server"])) return false;
  return ["url", "api_key", "account", "account_id", "user", "user_id", "actor_peer_id"].some((key) => typeof value[key] === "string");
}
var FileFields = class _FileFields {
  constructor(file, homeDir, warnings, value, prefix) {
    this.file = file;
    this.homeDir = homeDir;
    this.warnings = warnings;
    this.value = value;
    this.prefix = prefix;
  }
  file;
  homeDir;
  warnings;
  value;
  prefix;
  /** Fields of the whole file. */
  static of(file, homeDir, warnings) {
    return new _FileFields(file, homeDir, warnings, file.value, "");
  }
  get(key) {
    const entry = this.value?.[key];
    if (entry === void 0 || entry === null) return [this.sourceOf(key), void 0];
    if (typeof entry === "number" && Number.isFinite(entry)) return [this.sourceOf(key), String(entry)];
    if (typeof entry !== "string") {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be a string; ignoring it`);
      return [this.sourceOf(key), void 0];
    }
    return [this.sourceOf(key), text(entry)];
  }
  section(key) {
    const entry = this.value?.[key];
    if (entry !== void 0 && entry !== null && !isRecord(entry)) {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be an object; ignoring it`);
    }
    return new _FileFields(this.file, this.homeDir, this.warnings, isRecord(entry) ? entry : void 0, `${this.prefix}${key}.`);
  }
  hasAny(keys) {
    return keys.some((key) => typeof this.value?.[key] === "string" && text(this.value[key]) !== void 0);
  }
  sourceOf(key) {
    return `file:${this.shown()}#${this.prefix}${key}`;
  }
  shown() {
    return displayPath(this.file.path, this.homeDir);
  }
};
function derivedServerUrl(server) {
  const [hostSource, host] = server.get("host");
  const [portSource, port] = server.get("port");
  if (host === void 0 && port === void 0) return ["default", void 0];
  const portNumber = port !== void 0 && /^\d+$/.test(port) ? Number(port) : 1933;
  const hostName = !host || host === "0.0.0.0" ? "127.0.0.1" : host;
  return [host !== void 0 ? hostSource : portSource, `http://${hostName}:${portNumber}`];
}
function validUrls(candidates, warnings) {
  return candidates.map(([source, value]) => {
    if (value === void 0) return [source, void 0];
    if (isHttpUrl(value)) return [source, value.replace(/\/+$/, "")];
    warnings.push(`${source}: "${value}" is not an http(s) URL; ignoring it`);
    return [source, void 0];
  });
}
function isHttpUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
function anyExplicit(env, userConfig) {
  return ENV_CREDENTIAL_NAMES.some((name) => text(env[name]) !== void 0) || Object.keys(userConfig).length > 0;
}
function text(value) {
  const trimmed = value?.trim();
  return trimmed ? trimmed : void 0;
}
function definedOnly(values) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== void 0));
}

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
function listKnobs() {
  return Object.entries(KNOB_TABLE).map(([key, knob]) => ({ ...knob, key }));
}

// src/config/settings.ts
var FALSE_WORDS = /* @__PURE__ */ new Set(["0", "false", "no", "off"]);
function resolveSettings(input) {
  const warnings = [];
  const settings = {};
  const sources = {};
  for (const knob of listKnobs()) {
    const resolved = resolveKnob(knob, input, warnings);
    settings[knob.key] = resolved.value;
    sources[knob.key] = resolved.source;
  }
  return { settings, sources, warnings };
}
function defaultValue(knob, homeDir) {
  if (knob.type === "path") return expandHome(knob.default, homeDir);
  if (knob.type === "csv") return [...knob.default];
  return knob.default;
}
function resolveKnob(knob, input, warnings) {
  const candidates = [[`env:${knob.env}`, input.env[knob.env]]];
  if (input.file) candidates.push([`file:${input.file.shownAs}#plugin.codebuddy.${knob.key}`, input.file.values[knob.key]]);
  for (const [source, raw] of candidates) {
    if (raw === void 0 || raw === null || typeof raw === "string" && !raw.trim()) continue;
    const parsed = parseKnobValue(knob, raw, input.homeDir);
    if (parsed.ok) return { value: clamp(knob, parsed.value, source, warnings), source };
    warnings.push(`${source}: ${parsed.problem}; ignoring it`);
  }
  return { value: defaultValue(knob, input.homeDir), source: "default" };
}
function parseKnobValue(knob, raw, homeDir) {
  switch (knob.type) {
    case "bool":
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (typeof raw === "string") return { ok: true, value: !FALSE_WORDS.has(raw.trim().toLowerCase()) };
      return { ok: false, problem: `expected a boolean, got ${JSON.stringify(raw)}` };
    case "int":
    case "float":
      return parseNumber(knob, raw);
    case "string":
    case "path":
      if (typeof raw !== "string") return { ok: false, problem: `expected a string, got ${JSON.stringify(raw)}` };
      return { ok: true, value: knob.type === "path" ? expandHome(raw.trim(), homeDir) : raw.trim() };
    case "csv":
      if (typeof raw === "string") return { ok: true, value: splitList(raw) };
      if (Array.isArray(raw) && raw.every((item) => typeof item === "string")) return { ok: true, value: raw.map((item) => item.trim()).filter(Boolean) };
      return { ok: false, problem: `expected a comma-separated string or a list of strings, got ${JSON.stringify(raw)}` };
  }
}
function parseNumber(knob, raw) {
  const value = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value)) return { ok: false, problem: `expected a number, got ${JSON.stringify(raw)}` };
  if (knob.type === "int" && !Number.isInteger(value)) return { ok: false, problem: `expected a whole number, got ${JSON.stringify(raw)}` };
  return { ok: true, value };
}
function clamp(knob, value, source, warnings) {
  if (knob.type !== "int" && knob.type !== "float" || typeof value !== "number") return value;
  if (value < knob.min) {
    warnings.push(`${source}: ${value} is below the minimum ${knob.min}; using ${knob.min}`);
    return knob.min;
  }
  if (value > knob.max) {
    warnings.push(`${source}: ${value} is above the maximum ${knob.max}; using ${knob.max}`);
    return knob.max;
  }
  return value;
}
function splitList(text2) {
  return text2.split(",").map((item) => item.trim()).filter(Boolean);
}

// src/config/load.ts
function loadPluginConfig(input) {
  try {
    return resolveConfig(input);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const fallback = resolveSettings({ env: {}, homeDir: input.homeDir });
    return {
      credentials: {
        baseUrl: DEFAULT_BASE_URL,
        mcpUrl: `${DEFAULT_BASE_URL}/mcp`,
        sources: { baseUrl: "default", mcpUrl: "derived:baseUrl" },
        rootKeyOnly: false,
        files: []
      },
      settings: fallback.settings,
      settingSources: fallback.sources,
      warnings: [`configuration could not be loaded (${reason}); using defaults`]
    };
  }
}
function resolveConfig({ env, homeDir, readFile: readFile3 = readSmallTextFile }) {
  const { credentials, warnings, cliFile } = resolveCredentials({ env, homeDir, readFile: readFile3 });
  const plugin = cliFile.value?.["plugin"];
  const section = isRecord(plugin) ? plugin["codebuddy"] : void 0;
  if (section !== void 0 && !isRecord(section)) {
    warnings.push(`${displayPath(cliFile.path, homeDir)}: plugin.codebuddy should be an object; ignoring it`);
  }
  const file = isRecord(section) ? { values: section, shownAs: displayPath(cliFile.path, homeDir) } : void 0;
  const settings = resolveSettings({ env, homeDir, file });
  return {
    credentials,
    settings: settings.settings,
    settingSources: settings.sources,
    warnings: [...warnings, ...settings.warnings]
  };
}

// src/protocol/withTimeout.ts
async function withTimeout(work, ms, onTimeout) {
  let timer;
  const expired = new Promise((resolve2) => {
    timer = setTimeout(() => resolve2(onTimeout), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

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
function errorFailure(status, body, text2) {
  const error = isRecord(body) && isRecord(body["error"]) ? body["error"] : body;
  const code = isRecord(error) && typeof error["code"] === "string" ? error["code"] : `HTTP_${status}`;
  const details = isRecord(error) && isRecord(error["details"]) ? error["details"] : void 0;
  return failure(status, code, errorText(status, error, text2), details);
}
function errorText(status, error, text2) {
  if (isRecord(error)) {
    if (typeof error["message"] === "string" && error["message"]) return error["message"];
    if (typeof error["detail"] === "string" && error["detail"]) return error["detail"];
  }
  return text2.trim() ? `HTTP ${status}: ${quote(text2)}` : `HTTP ${status}`;
}
function quote(text2) {
  const flat = text2.replace(/\s+/g, " ").trim();
  return flat.length > MAX_QUOTED_BODY ? `${flat.slice(0, MAX_QUOTED_BODY)}\u2026` : flat;
}
function parseJson(text2) {
  if (!text2.trim()) return { ok: false, value: void 0 };
  try {
    return { ok: true, value: JSON.parse(text2) };
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
  const text2 = params.toString();
  return text2 ? `?${text2}` : "";
}
function redact(result, apiKey) {
  const key = apiKey?.trim();
  if (!key || !result.message.includes(key)) return result;
  return { ...result, message: result.message.split(key).join("***") };
}

// src/store/paths.ts
import { isAbsolute as isAbsolute2, join as join3 } from "node:path";
var DATA_DIR_VARIABLES = ["CODEBUDDY_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA", "OPENVIKING_CODEBUDDY_DATA_DIR"];
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== void 0) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join3(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join3(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join3(homeDir, value.slice(2)) : value;
  return isAbsolute2(expanded) ? expanded : void 0;
}
function storeLayout(root) {
  return {
    root,
    sessionsDir: join3(root, "sessions"),
    locksDir: join3(root, "locks"),
    queueDir: join3(root, "queue"),
    cacheDir: join3(root, "cache")
  };
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

// src/store/status.ts
import { join as join4 } from "node:path";

// src/store/atomic.ts
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";

// src/store/fsUtil.ts
function errorCode(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const code = error.code;
  return typeof code === "string" ? code : void 0;
}
function errorMessage2(error) {
  return error instanceof Error ? error.message : String(error);
}

// src/store/atomic.ts
async function readJsonDetailed(path) {
  let text2;
  try {
    text2 = await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { status: "missing" };
    return { status: "unreadable", reason: errorMessage2(error) };
  }
  try {
    return { status: "ok", value: JSON.parse(text2) };
  } catch (error) {
    return { status: "corrupt", reason: `invalid JSON (${text2.length} chars): ${errorMessage2(error)}` };
  }
}
async function readJson(path) {
  const result = await readJsonDetailed(path);
  return result.status === "ok" ? result.value : void 0;
}

// src/store/status.ts
function statusFile(dataDir, name) {
  return join4(dataDir, "status", `${name}.json`);
}
async function readStatus(dataDir) {
  const [server, recall, capture] = await Promise.all([
    readJson(statusFile(dataDir, "server")),
    readJson(statusFile(dataDir, "recall")),
    readJson(statusFile(dataDir, "capture"))
  ]);
  const snapshot = { recall: readMarks(recall), capture: readMarks(capture) };
  const parsedServer = readServer(server);
  if (parsedServer) snapshot.server = parsedServer;
  return snapshot;
}
function readServer(value) {
  if (!isRecord(value) || typeof value["up"] !== "boolean" || !isTime(value["at"])) return void 0;
  const detail = typeof value["detail"] === "string" ? value["detail"] : void 0;
  return { up: value["up"], at: value["at"], ...detail ? { detail } : {} };
}
function readMarks(value) {
  const marks = {};
  if (!isRecord(value)) return marks;
  for (const [sessionId, mark] of Object.entries(value)) {
    if (sessionId === "__proto__" || !isRecord(mark) || !isTime(mark["at"])) continue;
    const count = mark["count"];
    marks[sessionId] = { at: mark["at"], count: typeof count === "number" && Number.isFinite(count) ? count : 0 };
  }
  return marks;
}
function isTime(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

// src/statusline/format.ts
var STALE_SERVER_MS = 15 * 6e4;
function formatAge(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1e3));
  if (seconds < 5) return "now";
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}

// src/doctor/activityCheck.ts
var MAX_SESSIONS = 5;
async function checkActivity(dataDir, now) {
  const snapshot = await readStatus(dataDir);
  const ids = [.../* @__PURE__ */ new Set([...Object.keys(snapshot.recall), ...Object.keys(snapshot.capture)])];
  const lastAt = (id) => Math.max(snapshot.recall[id]?.at ?? 0, snapshot.capture[id]?.at ?? 0);
  const recent = ids.sort((a, b) => lastAt(b) - lastAt(a)).slice(0, MAX_SESSIONS);
  const lines = recent.map((id) => `${id}: recall ${describe2(snapshot.recall[id], "memory", "memories", now)}; capture ${describe2(snapshot.capture[id], "message", "messages", now)}`);
  if (snapshot.server) {
    lines.unshift(`server last seen ${snapshot.server.up ? "up" : `down${snapshot.server.detail ? ` (${snapshot.server.detail})` : ""}`} ${formatAge(now - snapshot.server.at)}`);
  }
  if (recent.length === 0) lines.push("no session has recalled or captured anything yet");
  const sessions = recent.map((id) => ({ sessionId: id, recall: snapshot.recall[id] ?? null, capture: snapshot.capture[id] ?? null }));
  return { id: "activity", title: "Recent sessions", status: "info", lines, data: { server: snapshot.server ?? null, sessions } };
}
function describe2(mark, one, many, now) {
  if (!mark) return "never";
  return `${mark.count} ${mark.count === 1 ? one : many} ${formatAge(now - mark.at)}`;
}

// src/doctor/mask.ts
var VISIBLE_TAIL = 4;
var MIN_LENGTH_FOR_TAIL = 12;
function maskSecret(secret) {
  const value = secret.trim();
  return value.length < MIN_LENGTH_FOR_TAIL ? "****" : `****${value.slice(-VISIBLE_TAIL)}`;
}
function maskIn(text2, secret) {
  const value = secret?.trim();
  return value ? text2.split(value).join(maskSecret(value)) : text2;
}

// src/doctor/configCheck.ts
var ROOT_KEY_FIX = `Use a USER key, not the server root key (OpenViking refuses root keys on memory APIs): have one created through the server's admin API (/api/v1/admin), then set it as the plugin option api_key, OPENVIKING_API_KEY, or "api_key" in ~/.openviking/ovcli.conf.`;
function checkConfig(config, homeDir) {
  const { credentials, warnings } = config;
  const from = (field) => credentials.sources[field] ?? "unset";
  const lines = [
    credentials.files.length > 0 ? `files read: ${credentials.files.map((file) => displayPath(file, homeDir)).join(", ")}` : "files read: none (no ~/.openviking/ovcli.conf or ov.conf)",
    `server URL: ${credentials.baseUrl}  (${from("baseUrl")})`,
    `MCP URL: ${credentials.mcpUrl}  (${from("mcpUrl")})`,
    `API key: ${credentials.apiKey ? `${maskSecret(credentials.apiKey)}  (${from("apiKey")})` : "none"}`
  ];
  if (credentials.account) lines.push(`account: ${credentials.account}  (${from("account")})`);
  if (credentials.user) lines.push(`user: ${credentials.user}  (${from("user")})`);
  if (credentials.peerId) lines.push(`peer: ${credentials.peerId}  (${from("peerId")})`);
  const changed = changedSettings(config);
  lines.push(changed.length > 0 ? `settings changed from default: ${changed.map((s) => s.text).join(", ")}` : "settings: all defaults");
  lines.push(...warnings.map((warning) => `warning: ${warning}`));
  const data = {
    files: credentials.files,
    baseUrl: credentials.baseUrl,
    mcpUrl: credentials.mcpUrl,
    apiKey: credentials.apiKey ? maskSecret(credentials.apiKey) : null,
    sources: credentials.sources,
    rootKeyOnly: credentials.rootKeyOnly,
    changedSettings: Object.fromEntries(changed.map((s) => [s.env, s.source])),
    warnings
  };
  if (credentials.rootKeyOnly) return { id: "config", title: "Configuration", status: "fail", lines, fix: ROOT_KEY_FIX, data };
  if (!config.settings.enabled) {
    return { id: "config", title: "Configuration", status: "warn", lines, fix: "Memory is switched off: unset OPENVIKING_MEMORY_ENABLED (or set it to true).", data };
  }
  if (warnings.length > 0) {
    return { id: "config", title: "Configuration", status: "warn", lines, fix: "Correct the values named in the warnings above; they are ignored until then.", data };
  }
  return { id: "config", title: "Configuration", status: "pass", lines, data };
}
function changedSettings(config) {
  const changed = [];
  for (const [field, source] of Object.entries(config.settingSources ?? {})) {
    if (!source || source === "default") continue;
    const knob = KNOB_TABLE[field];
    const value = config.settings[field];
    const shown = Array.isArray(value) ? value.join(",") : String(value);
    changed.push({ env: knob.env, source, text: `${knob.env}=${shown} (${source})` });
  }
  return changed;
}

// src/doctor/hooksCheck.ts
import { access, readFile as readFile2 } from "node:fs/promises";
import { constants } from "node:fs";
import { join as join5 } from "node:path";

// src/hook/routes.ts
function routeFor(event) {
  switch (event) {
    case "SessionStart":
      return { load: () => import("./start.mjs").then((m) => m.runStart), safetyMs: 12e3 };
    case "UserPromptSubmit":
      return { load: () => import("./prompt.mjs").then((m) => m.runPrompt), safetyMs: 8e3 };
    case "PreToolUse":
      return { load: () => import("./guard.mjs").then((m) => m.runGuard), safetyMs: 3e3 };
    case "Stop":
    case "SubagentStop":
      return { load: loadCapture, safetyMs: 8e3 };
    case "SubagentStart":
      return { load: loadCapture, safetyMs: 3e3 };
    case "SessionEnd":
      return { load: loadCapture, safetyMs: 12e3 };
    case "PreCompact":
      return { load: loadCapture, safetyMs: 55e3 };
    default:
      return void 0;
  }
}
function loadCapture() {
  return import("./capture.mjs").then((m) => m.runCapture);
}

// src/protocol/input.ts
var HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
  "Notification"
];

// src/doctor/hooksCheck.ts
var PREFILTER = join5("hooks", "guard-prefilter.sh");
var DETACHER = join5("hooks", "detach.sh");
var DISPATCHER = join5("scripts", "hook.mjs");
var PREFILTER_TIMEOUT_MS = 2e3;
var ORDINARY_READ = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "/etc/hostname" } });
async function checkHooks(pluginRoot, runProgram) {
  const base = { id: "hooks", title: "Hooks" };
  const file = join5(pluginRoot, "hooks", "hooks.json");
  let commands;
  try {
    commands = commandsOf(JSON.parse(await readFile2(file, "utf8")));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...base, status: "fail", lines: [`${file} cannot be read: ${reason}`], fix: "Reinstall the plugin: its hooks/hooks.json is missing or broken." };
  }
  const problems = [];
  const warnings = [];
  const registered = new Set(commands.map((entry) => entry.event));
  for (const event of HOOK_EVENTS) if (routeFor(event) && !registered.has(event)) problems.push(`${event} is not registered`);
  for (const { event, command } of commands) {
    const target = command.includes("guard-prefilter.sh") ? PREFILTER : command.includes("detach.sh") ? DETACHER : command.includes("scripts/hook.mjs") ? DISPATCHER : void 0;
    if (!target) problems.push(`${event}: "${command}" does not run scripts/hook.mjs`);
    if (!/\$\{(CODEBUDDY|CLAUDE)_PLUGIN_ROOT(:-[^}]*\})?\}/.test(command)) problems.push(`${event}: "${command}" does not use a plugin-root placeholder`);
    else if (!command.includes("${CLAUDE_PLUGIN_ROOT}")) warnings.push(`${event}: uses \${CODEBUDDY_PLUGIN_ROOT}, which Claude Code does not substitute`);
  }
  const referenced = [DISPATCHER, ...[PREFILTER, DETACHER].filter((script) => commands.some((entry) => entry.command.includes(script.split("/").pop() ?? script)))];
  for (const target of referenced) {
    if (!await readable(join5(pluginRoot, target))) problems.push(`${target} is missing (run \`npm run build\` in a checkout)`);
  }
  const prefilter = await runPrefilter(pluginRoot, runProgram);
  if (prefilter) problems.push(prefilter);
  const events = [...registered];
  const lines = [`${file}: ${commands.length} commands on ${events.length} events (${events.join(", ")})`];
  if (!prefilter) lines.push("prefilter runs under sh and passes an ordinary Read silently");
  lines.push(...problems, ...uniqueWarnings(warnings));
  const data = { file, events, problems, warnings };
  if (problems.length > 0) return { ...base, status: "fail", lines, fix: "Reinstall the plugin, or restore hooks/hooks.json from the release.", data };
  if (warnings.length > 0) {
    return { ...base, status: "warn", lines, fix: "Only matters on Claude Code: write ${CLAUDE_PLUGIN_ROOT} in hooks/hooks.json (CodeBuddy substitutes it too).", data };
  }
  return { ...base, status: "pass", lines, data };
}
function commandsOf(config) {
  const hooks = isRecord(config) ? config["hooks"] : void 0;
  if (!isRecord(hooks)) throw new Error('no "hooks" object');
  const entries = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const list = isRecord(group) && Array.isArray(group["hooks"]) ? group["hooks"] : [];
      for (const hook of list) if (isRecord(hook) && typeof hook["command"] === "string") entries.push({ event, command: hook["command"] });
    }
  }
  return entries;
}
async function readable(path) {
  return access(path, constants.R_OK).then(
    () => true,
    () => false
  );
}
async function runPrefilter(pluginRoot, runProgram) {
  const path = join5(pluginRoot, PREFILTER);
  if (!await readable(path)) return void 0;
  try {
    const run = await runProgram("sh", [path], ORDINARY_READ, PREFILTER_TIMEOUT_MS);
    if (run.code !== 0) return `prefilter exited ${String(run.code)} on an ordinary Read`;
    if (run.stdout.trim() !== "") return "prefilter printed output on an ordinary Read (it must pass silently)";
    return void 0;
  } catch (error) {
    return `prefilter could not run under sh: ${error instanceof Error ? error.message : String(error)}`;
  }
}
function uniqueWarnings(warnings) {
  return warnings.length <= 1 ? warnings : [`${warnings.length} commands use \${CODEBUDDY_PLUGIN_ROOT}, which Claude Code does not substitute`];
}

// src/doctor/localCheck.ts
import { lstat, readdir as readdir2 } from "node:fs/promises";
import { join as join7 } from "node:path";

// src/store/queueFiles.ts
import { readdir } from "node:fs/promises";
import { join as join6 } from "node:path";
var PENDING_SUFFIX = ".json";
var CLAIMED_SUFFIX = ".processing";
var SEQ_DIGITS = 6;
var MAX_SEQ = 10 ** SEQ_DIGITS - 1;
function queuePaths(queueDir) {
  return {
    pendingDir: join6(queueDir, "pending"),
    deadDir: join6(queueDir, "dead"),
    enqueueLock: join6(queueDir, "enqueue.lock"),
    replayLock: join6(queueDir, "replay.lock")
  };
}
function parseEntryName(name) {
  const claimed = name.endsWith(CLAIMED_SUFFIX);
  if (!claimed && !name.endsWith(PENDING_SUFFIX)) return void 0;
  const base = name.slice(0, -(claimed ? CLAIMED_SUFFIX : PENDING_SUFFIX).length);
  const match = /^(\d{15})-(\d{6})-([0-9a-f]{32})$/.exec(base);
  if (!match) return void 0;
  return { base, createdAt: Number(match[1]), keyPrefix: match[3], claimed };
}
function parseDeadAt(name) {
  const match = /^(\d{15})-.*\.json$/.exec(name);
  return match ? Number(match[1]) : void 0;
}
async function listDir(dir) {
  try {
    return await readdir(dir);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return [];
    throw error;
  }
}

// src/store/queueReplay.ts
var DEFAULT_CLAIM_TTL_MS = 5 * 6e4;

// src/store/queue.ts
async function queueStats(queueDir, now) {
  const paths = queuePaths(queueDir);
  const pending = [];
  const claimed = [];
  for (const name of await listDir(paths.pendingDir)) {
    const parsed = parseEntryName(name);
    if (parsed) (parsed.claimed ? claimed : pending).push(parsed.createdAt);
  }
  const dead = (await listDir(paths.deadDir)).map(parseDeadAt).filter((at) => at !== void 0);
  return { pending: ageSummary(pending, now), claimed: ageSummary(claimed, now), dead: ageSummary(dead, now) };
}
function ageSummary(times, now) {
  if (times.length === 0) return { count: 0 };
  const oldest = times.reduce((a, b) => Math.min(a, b));
  return { count: times.length, oldestAgeMs: Math.max(0, now - oldest) };
}

// src/doctor/localCheck.ts
var MAX_ENTRIES = 5e3;
var MAX_NAMED = 5;
async function checkDataDir(env, homeDir) {
  const { dir, source } = describeDataDir(env, homeDir);
  const base = { id: "data-dir", title: "Local state" };
  const where = `${dir}  (${source})`;
  let mode;
  try {
    const stats = await lstat(dir);
    if (!stats.isDirectory()) return { ...base, status: "fail", lines: [`${where} is not a directory`], fix: `Remove ${dir} or point OPENVIKING_CODEBUDDY_DATA_DIR elsewhere.`, data: { dir, source } };
    mode = stats.mode & 511;
  } catch (error) {
    if (errorCode(error) === "ENOENT") {
      return { ...base, status: "info", lines: [`${where}: not created yet (the first hook event creates it)`], data: { dir, source, exists: false } };
    }
    return { ...base, status: "fail", lines: [`${where} cannot be read: ${errorMessage2(error)}`], fix: `Make ${dir} readable by you (chmod 700).`, data: { dir, source } };
  }
  const loose = await looseEntries(dir);
  if (mode !== 448) loose.unshift({ path: dir, mode, want: 448 });
  const lines = [where, `mode ${octal(mode)}; ${loose.length === 0 ? "every file 0600 and directory 0700" : `${loose.length} entries too open`}`];
  lines.push(...loose.slice(0, MAX_NAMED).map((entry) => `  ${entry.path} is ${octal(entry.mode)}, should be ${octal(entry.want)}`));
  const data = { dir, source, exists: true, mode: octal(mode), looseEntries: loose.length };
  if (loose.length === 0) return { ...base, status: "pass", lines, data };
  return {
    ...base,
    status: "warn",
    lines,
    fix: `Other users may read queued conversation text: run  find "${dir}" -type d -exec chmod 700 {} + -o -type f -exec chmod 600 {} +`,
    data
  };
}
async function looseEntries(root) {
  const loose = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const dir = pending.pop();
    const names = await readdir2(dir).catch(() => []);
    for (const name of names) {
      seen += 1;
      const path = join7(dir, name);
      const stats = await lstat(path).catch(() => void 0);
      if (!stats || stats.isSymbolicLink()) continue;
      const mode = stats.mode & 511;
      if (stats.isDirectory()) pending.push(path);
      if ((mode & 63) !== 0) loose.push({ path, mode, want: stats.isDirectory() ? 448 : 384 });
    }
  }
  return loose;
}
function octal(mode) {
  return `0${mode.toString(8).padStart(3, "0")}`;
}
async function checkQueue(env, homeDir, now, serverUp) {
  const base = { id: "queue", title: "Pending writes" };
  const queueDir = storeLayout(describeDataDir(env, homeDir).dir).queueDir;
  let stats;
  try {
    stats = await queueStats(queueDir, now);
  } catch (error) {
    return { ...base, status: "fail", lines: [`${queueDir} cannot be read: ${errorMessage2(error)}`], fix: `Make ${queueDir} readable by you (chmod 700).` };
  }
  const age = (oldest) => oldest === void 0 ? "" : `, oldest ${formatAge(oldest)}`;
  const lines = [
    `pending: ${stats.pending.count}${age(stats.pending.oldestAgeMs)}`,
    `being replayed: ${stats.claimed.count}${age(stats.claimed.oldestAgeMs)}`,
    `dead letters: ${stats.dead.count}${age(stats.dead.oldestAgeMs)}`
  ];
  const data = { pending: stats.pending, claimed: stats.claimed, dead: stats.dead, queueDir };
  if (stats.dead.count > 0) {
    return {
      ...base,
      status: "warn",
      lines,
      fix: `${stats.dead.count} writes were given up (expired, rejected or retried too often); each file in ${queuePaths(queueDir).deadDir} says why and holds the original request. Delete them once read.`,
      data
    };
  }
  if (stats.pending.count > 0) {
    const when = serverUp ? "the next session start replays them" : "they are replayed once the server is reachable again";
    return { ...base, status: "warn", lines, fix: `${stats.pending.count} writes wait for the server: ${when}.`, data };
  }
  return { ...base, status: "pass", lines, data };
}

// src/doctor/mcpCheck.ts
var PROTOCOL_VERSION = "2025-06-18";
async function checkMcp(options) {
  const { credentials } = options;
  const post = (body, extra = {}) => options.http({
    method: "POST",
    url: credentials.mcpUrl,
    headers: { ...mcpHeaders(credentials, options.userAgent), ...extra },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs
  });
  const failed = (text2, fix, data = {}) => ({
    id: "mcp",
    title: "MCP endpoint",
    status: "fail",
    lines: [maskIn(text2, credentials.apiKey)],
    fix,
    data: { url: credentials.mcpUrl, ...data }
  });
  try {
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "openviking-doctor", version: "1" } }
    });
    const initResult = rpcResult(init, 1);
    if (typeof initResult === "string") return failed(`${credentials.mcpUrl} initialize: ${initResult}`, fixFor(init.status), { status: init.status });
    const version = typeof initResult["protocolVersion"] === "string" ? initResult["protocolVersion"] : PROTOCOL_VERSION;
    const session = init.headers["mcp-session-id"];
    const follow = { "MCP-Protocol-Version": version, ...session ? { "Mcp-Session-Id": session } : {} };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, follow);
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, follow);
    const listResult = rpcResult(list, 2);
    if (typeof listResult === "string") return failed(`${credentials.mcpUrl} tools/list: ${listResult}`, fixFor(list.status), { status: list.status });
    const tools = Array.isArray(listResult["tools"]) ? listResult["tools"].filter(isRecord) : [];
    const names = tools.map((tool) => tool["name"]).filter((name) => typeof name === "string");
    return {
      id: "mcp",
      title: "MCP endpoint",
      status: names.length > 0 ? "pass" : "warn",
      lines: [`${credentials.mcpUrl}: ${names.length} tools (protocol ${version})`, ...names.length > 0 ? [`tools: ${names.join(", ")}`] : []],
      ...names.length > 0 ? {} : { fix: "The endpoint lists no tools: check that the server is an OpenViking server with MCP enabled." },
      data: { url: credentials.mcpUrl, toolCount: names.length, tools: names, protocolVersion: version }
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failed(`${credentials.mcpUrl} did not answer (${reason})`, `Check that the OpenViking server is running; the MCP URL comes from ${credentials.sources.mcpUrl ?? "the server URL"}.`);
  }
}
function mcpHeaders(credentials, userAgent) {
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "User-Agent": userAgent
  };
  const identity = [
    ["Authorization", credentials.apiKey ? `Bearer ${credentials.apiKey}` : void 0],
    ["X-OpenViking-Account", credentials.account],
    ["X-OpenViking-User", credentials.user],
    ["X-OpenViking-Actor-Peer", credentials.peerId]
  ];
  for (const [name, value] of identity) if (value?.trim()) headers[name] = value.trim();
  return headers;
}
function fixFor(status) {
  if (status === 401 || status === 403) return "The MCP endpoint refused the credentials: see the Identity check; the same key is used for MCP.";
  return "Check that the server is an OpenViking server with its /mcp endpoint enabled.";
}
function rpcResult(response, id) {
  if (response.status < 200 || response.status >= 300) return `HTTP ${response.status}${errorText2(parseMessages(response))}`;
  const message = parseMessages(response).find((entry) => entry["id"] === id);
  if (!message) return "no JSON-RPC reply in the response";
  if (isRecord(message["error"])) return `JSON-RPC error ${String(message["error"]["code"])}: ${String(message["error"]["message"])}`;
  return isRecord(message["result"]) ? message["result"] : "the reply has no result";
}
function parseMessages(response) {
  const isSse = (response.headers["content-type"] ?? "").includes("text/event-stream");
  const payloads = isSse ? response.body.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice("data:".length).trim()) : [response.body];
  const messages = [];
  for (const payload of payloads) {
    const parsed = parseJson2(payload);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isRecord(item)) messages.push(item);
  }
  return messages;
}
function errorText2(messages) {
  const error = messages.map((message) => message["error"]).find(isRecord);
  return error && typeof error["message"] === "string" ? `: ${error["message"]}` : "";
}
function parseJson2(text2) {
  if (!text2 || text2 === "[DONE]") return void 0;
  try {
    return JSON.parse(text2);
  } catch {
    return void 0;
  }
}

// src/doctor/nodeIo.ts
import { spawn } from "node:child_process";
function createNodeDoctorIo() {
  return {
    write: (text2) => new Promise((resolve2) => process.stdout.write(text2, () => resolve2())),
    runProgram: runBounded
  };
}
function runBounded(file, args, stdin, timeoutMs) {
  return new Promise((resolve2, reject) => {
    const child = spawn(file, args, { stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk) => stdout += chunk);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve2({ code, stdout });
    });
    child.stdin.on("error", () => void 0);
    child.stdin.end(stdin);
  });
}

// src/doctor/render.ts
var MARK = { pass: "PASS", warn: "WARN", fail: "FAIL", info: "INFO" };
function renderText(report) {
  const out = [`OpenViking doctor (openviking-codebuddy ${report.version})`, ""];
  for (const check of report.checks) {
    out.push(`[${MARK[check.status]}] ${check.title}`);
    for (const line of check.lines) out.push(`       ${line}`);
    if (check.fix) out.push(`       fix: ${check.fix}`);
  }
  const failed = report.checks.filter((check) => check.status === "fail");
  const warned = report.checks.filter((check) => check.status === "warn");
  out.push("");
  if (failed.length > 0) out.push(`${failed.length} problem(s) to fix: ${failed.map((check) => check.title).join(", ")}. Start with the first FAIL above.`);
  else if (warned.length > 0) out.push(`Working, with ${warned.length} warning(s): ${warned.map((check) => check.title).join(", ")}.`);
  else out.push("All checks passed.");
  return `${out.join("\n")}
`;
}
function renderJson(report) {
  return `${JSON.stringify(report, null, 2)}
`;
}

// src/doctor/serverCheck.ts
var CONNECT_FIX = 'Start a local server with `openviking-server` (it listens on http://127.0.0.1:1933), or point the plugin at yours: set OPENVIKING_URL (plus OPENVIKING_API_KEY with a user key for a remote server), or the plugin options server_url / api_key (asked when the plugin is enabled; kept under pluginConfigs in settings.json), or write ~/.openviking/ovcli.conf as {"url": "https://\u2026", "api_key": "\u2026"}.';
async function checkServer(config, client, now) {
  const started = now();
  const health = await client.health();
  const elapsedMs = now() - started;
  if (!health.ok) return { server: unreachable(config, health) };
  const info = health.result;
  const server = {
    id: "server",
    title: "Server",
    status: "pass",
    lines: [
      `${config.credentials.baseUrl} answered /health in ${elapsedMs} ms`,
      `version: ${info.version ?? "unknown"}, auth mode: ${info.auth_mode ?? "unknown"}`
    ],
    data: { url: config.credentials.baseUrl, version: info.version ?? null, authMode: info.auth_mode ?? null, elapsedMs }
  };
  return { server, identity: await checkIdentity(config, client, info), health: info };
}
function unreachable(config, failure2) {
  const { baseUrl, sources, apiKey } = config.credentials;
  const why = maskIn(`${failure2.code}: ${failure2.message}`, apiKey);
  const answered = failure2.status > 0;
  const lines = [
    answered ? `${baseUrl}/health answered HTTP ${failure2.status} (${why}): is this an OpenViking server?` : `nothing answers at ${baseUrl} (${why})`,
    sources.baseUrl === "default" ? "no server URL is configured, so the plugin tried the default" : `the URL comes from ${sources.baseUrl}`
  ];
  const fix = sources.baseUrl === "default" ? CONNECT_FIX : `Check that the OpenViking server at ${baseUrl} is running and reachable from this machine, or correct ${sources.baseUrl}. ${CONNECT_FIX}`;
  return { id: "server", title: "Server", status: "fail", lines, fix, data: { url: baseUrl, code: failure2.code, status: failure2.status } };
}
async function checkIdentity(config, client, health) {
  const [status, search, home] = await Promise.all([
    client.systemStatus(),
    client.find({ query: "openviking doctor probe", limit: 1 }),
    client.ls("viking://~")
  ]);
  const authMode = health.auth_mode ?? "unknown";
  const user = health.user_id ?? (status.ok ? status.result.user : void 0) ?? config.credentials.user;
  const lines = [
    `account: ${health.account_id ?? config.credentials.account ?? "default"}, user: ${user ?? "unknown"}, role: ${health.role ?? (authMode === "dev" ? "root (dev mode)" : "unknown")}`
  ];
  const rootKey = authMode === "api_key" && health.role === "root" || !search.ok && search.status === 403;
  const data = {
    authMode,
    account: health.account_id ?? null,
    user: user ?? null,
    role: health.role ?? null,
    rootKey,
    memoryApi: search.ok,
    homeAlias: home.ok
  };
  const fail = (text2, fix) => ({ id: "identity", title: "Identity", status: "fail", lines: [...lines, text2], fix, data });
  if (rootKey) return fail("the API key is a ROOT key: OpenViking refuses it on memory APIs (403 PERMISSION_DENIED)", ROOT_KEY_FIX);
  if (!search.ok) {
    const failure2 = describeFailure(search, config.credentials.apiKey);
    if (search.status === 401) return fail(`the server rejected the credentials (${failure2})`, authFix(config));
    if (search.status === 400 && authMode === "trusted") {
      return fail(`trusted mode needs an account and a user (${failure2})`, "Set OPENVIKING_ACCOUNT and OPENVIKING_USER, or the plugin options account / user.");
    }
    return { id: "identity", title: "Identity", status: "warn", lines: [...lines, `memory search failed (${failure2})`], fix: "Run doctor again; if it persists, check the server log.", data };
  }
  lines.push("memory APIs: usable");
  if (home.ok) {
    lines.push(`viking://~ works${user ? ` (\u2192 viking://user/${user})` : ""}`);
  } else if (home.status === 400 && (authMode === "dev" || health.role === "root")) {
    lines.push("viking://~ is unavailable to ROOT (every request in dev mode is ROOT); expected: the plugin uses viking://user/<id> itself");
  } else {
    lines.push(`viking://~ failed (${describeFailure(home, config.credentials.apiKey)})`);
    return { id: "identity", title: "Identity", status: "warn", lines, fix: "The MCP tools that take viking://~ paths will fail for this identity; use a user key.", data };
  }
  return { id: "identity", title: "Identity", status: "pass", lines, data };
}
function authFix(config) {
  const { apiKey, sources } = config.credentials;
  if (!apiKey) return `This server requires an API key. ${CONNECT_FIX}`;
  return `The key ${maskSecret(apiKey)} (from ${sources.apiKey ?? "unknown"}) is not valid on this server: replace it with a current user key.`;
}
function describeFailure(result, apiKey) {
  if (result.ok) return "ok";
  return maskIn(`${result.status > 0 ? `HTTP ${result.status} ` : ""}${result.code}: ${result.message}`, apiKey);
}

// src/doctor/main.ts
var DOCTOR_REQUEST_TIMEOUT_MS = 1500;
var DOCTOR_NETWORK_BUDGET_MS = 3500;
var DOCTOR_TOTAL_BUDGET_MS = 8e3;
var USAGE = "usage: node scripts/hook.mjs doctor [--json]\n";
async function runDoctor(argv, deps, io = createNodeDoctorIo()) {
  const unknown = argv.filter((arg) => arg !== "--json");
  if (unknown.length > 0) {
    await io.write(`unknown argument: ${unknown.join(" ")}
${USAGE}`);
    return 2;
  }
  const report = await buildDoctorReport(deps, io.runProgram);
  await io.write(argv.includes("--json") ? renderJson(report) : renderText(report));
  return report.ok ? 0 : 1;
}
async function buildDoctorReport(deps, runProgram) {
  const timedOut = { id: "doctor", title: "Doctor", status: "fail", lines: [`the checks did not finish within ${DOCTOR_TOTAL_BUDGET_MS} ms`], fix: "Run doctor again with OPENVIKING_DEBUG=1 and read the debug log." };
  let checks;
  try {
    checks = await withTimeout(runChecks(deps, runProgram), DOCTOR_TOTAL_BUDGET_MS, [timedOut]);
  } catch (error) {
    deps.log.warn("doctor failed", { error: error instanceof Error ? error.message : String(error) });
    checks = [{ ...timedOut, lines: [`the doctor itself failed: ${error instanceof Error ? error.message : String(error)}`] }];
  }
  return { ok: checks.every((check) => check.status !== "fail"), version: PLUGIN_VERSION, checks };
}
async function runChecks(deps, runProgram) {
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  const startedAt = deps.now();
  const deadlineAt = startedAt + DOCTOR_NETWORK_BUDGET_MS;
  const client = clientFor(config, deps, DOCTOR_REQUEST_TIMEOUT_MS, deadlineAt);
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const network = (async () => {
    const server2 = await checkServer(config, client, deps.now);
    const left = deadlineAt - deps.now();
    const mcp2 = server2.health && left > 0 ? await checkMcp({ credentials: config.credentials, http: deps.http, userAgent: USER_AGENT, timeoutMs: Math.min(DOCTOR_REQUEST_TIMEOUT_MS, left) }) : { id: "mcp", title: "MCP endpoint", status: "info", lines: [`not checked: ${server2.health ? "out of time" : "the server is unreachable"}`] };
    return { server: server2, mcp: mcp2 };
  })();
  const [{ server, mcp }, dataDirCheck, activity, hooks] = await Promise.all([
    network,
    checkDataDir(deps.env, deps.homeDir),
    checkActivity(dataDir, startedAt),
    checkHooks(deps.pluginRoot, runProgram)
  ]);
  const queue = await checkQueue(deps.env, deps.homeDir, startedAt, server.server.status === "pass");
  return [
    checkConfig(config, deps.homeDir),
    server.server,
    ...server.identity ? [server.identity] : [],
    mcp,
    dataDirCheck,
    queue,
    activity,
    hooks
  ];
}
export {
  DOCTOR_NETWORK_BUDGET_MS,
  DOCTOR_REQUEST_TIMEOUT_MS,
  DOCTOR_TOTAL_BUDGET_MS,
  buildDoctorReport,
  runDoctor
};
