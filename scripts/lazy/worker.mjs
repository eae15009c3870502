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
function loadConfigFile(path, shownAs, readFile5) {
  let text2;
  try {
    text2 = readFile5(path);
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
function loadCredentialFiles({ env, homeDir, readFile: readFile5 }) {
  const cliOverride = text(env["OPENVIKING_CLI_CONFIG_FILE"]);
  const ovOverride = text(env["OPENVIKING_CONFIG_FILE"]);
  const load = (override, fallbackName) => {
    const path = expandHome(override ?? join2("~", ".openviking", fallbackName), homeDir);
    return loadConfigFile(path, displayPath(path, homeDir), readFile5);
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
function resolveConfig({ env, homeDir, readFile: readFile5 = readSmallTextFile }) {
  const { credentials, warnings, cliFile } = resolveCredentials({ env, homeDir, readFile: readFile5 });
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

// src/protocol/parse.ts
var STRING_FIELDS = [
  "session_id",
  "transcript_path",
  "cwd",
  "permission_mode",
  "generation_id",
  "client",
  "version",
  "model",
  "agent_type",
  "source",
  "prompt",
  "tool_name",
  "tool_use_id",
  "call_id",
  "last_assistant_message",
  "agent_id",
  "agent_transcript_path",
  "trigger",
  "custom_instructions",
  "reason"
];
var BOOLEAN_FIELDS = ["is_internal_continuation", "stop_hook_active"];
function parseHookInput(text2) {
  const value = parseJson(text2);
  if (!isRecord(value) || !isHookEventName(value.hook_event_name)) return null;
  const input = { ...value };
  for (const key of STRING_FIELDS) dropUnless(input, key, "string");
  for (const key of BOOLEAN_FIELDS) dropUnless(input, key, "boolean");
  return input;
}
function isHookEventName(value) {
  return typeof value === "string" && HOOK_EVENTS.includes(value);
}
function dropUnless(input, key, type) {
  if (Object.hasOwn(input, key) && typeof input[key] !== type) delete input[key];
}
function parseJson(text2) {
  const trimmed = text2.charCodeAt(0) === 65279 ? text2.slice(1) : text2;
  try {
    return JSON.parse(trimmed);
  } catch {
    return void 0;
  }
}

// src/session/workspace.ts
function resolveWorkspace(input, env, cwd) {
  for (const candidate of [input.cwd, env.CODEBUDDY_PROJECT_DIR, env.CLAUDE_PROJECT_DIR]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate;
  }
  return cwd;
}

// src/capture/commitStale.ts
import { stat as stat3 } from "node:fs/promises";

// src/session/ids.ts
var OV_SESSION_PREFIX = "cb-";
var SUBAGENT_SEPARATOR = "__subagent-";
function sanitizeIdPart(raw) {
  return raw.trim().replace(/[^A-Za-z0-9._-]/g, "-");
}
function ovSessionId(hostSessionId) {
  const id = sanitizeIdPart(hostSessionId);
  return id === "" ? "" : `${OV_SESSION_PREFIX}${id}`;
}
function ovSubagentSessionId(hostSessionId, agentId) {
  const main = ovSessionId(hostSessionId);
  const agent = sanitizeIdPart(agentId);
  return main === "" || agent === "" ? "" : `${main}${SUBAGENT_SEPARATOR}${agent}`;
}

// src/transcript/fingerprint.ts
function fnv1a(text2) {
  let hash = 2166136261;
  for (let i = 0; i < text2.length; i++) {
    hash ^= text2.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

// src/transcript/assemble.ts
function newDraft(role, event, stepKey) {
  const draft = {
    role,
    parts: [],
    firstIndex: event.index,
    lastIndex: event.index,
    sourceIds: [],
    firstId: event.id,
    pending: /* @__PURE__ */ new Set()
  };
  if (stepKey !== void 0) draft.stepKey = stepKey;
  if (event.timestamp !== void 0) draft.timestamp = event.timestamp;
  return draft;
}
function touch(draft, event) {
  if (event.id !== "" && draft.sourceIds[draft.sourceIds.length - 1] !== event.id) draft.sourceIds.push(event.id);
  if (event.index > draft.lastIndex) draft.lastIndex = event.index;
}
function textParts(texts) {
  return texts.map((text2) => ({ type: "text", text: text2 }));
}
var Assembler = class {
  drafts = [];
  step;
  openCalls = /* @__PURE__ */ new Map();
  add(event) {
    switch (event.kind) {
      case "user-text": {
        this.moveOn();
        const draft = newDraft("user", event);
        draft.parts.push(...textParts(event.texts));
        this.push(draft, event);
        return;
      }
      case "moved-on":
        this.moveOn();
        return;
      case "assistant-text":
        this.stepFor(event, event.stepKey).parts.push(...textParts(event.texts));
        return;
      case "tool-call": {
        const draft = this.stepFor(event, event.stepKey);
        const part = { type: "tool", tool_id: event.callId, tool_name: event.name, tool_input: event.input };
        draft.parts.push(part);
        draft.pending.add(part);
        if (event.callId !== "") this.openCalls.set(event.callId, { draft, part });
        return;
      }
      case "tool-result":
        this.resolve(event);
        return;
    }
  }
  push(draft, event) {
    touch(draft, event);
    this.drafts.push(draft);
  }
  /** The open step when the event belongs to it, else a new step (which abandons the old one's open calls). */
  stepFor(event, stepKey) {
    if (this.step !== void 0 && this.step.stepKey === stepKey) {
      touch(this.step, event);
      return this.step;
    }
    this.moveOn();
    const draft = newDraft("assistant", event, stepKey);
    this.push(draft, event);
    this.step = draft;
    return draft;
  }
  /** The conversation went on: the open step is closed and its unanswered calls count as failed. */
  moveOn() {
    for (const { draft, part } of this.openCalls.values()) {
      part.tool_status = "error";
      draft.pending.delete(part);
    }
    this.openCalls.clear();
    this.step = void 0;
  }
  resolve(event) {
    const open2 = this.openCalls.get(event.callId);
    const status = event.isError ? "error" : "completed";
    if (open2 === void 0) {
      const draft = newDraft("assistant", event);
      const part = { type: "tool", tool_id: event.callId, tool_output: event.output, tool_status: status };
      if (event.name !== void 0) part.tool_name = event.name;
      draft.parts.push(part);
      this.push(draft, event);
      return;
    }
    this.openCalls.delete(event.callId);
    open2.part.tool_output = event.output;
    open2.part.tool_status = status;
    open2.draft.pending.delete(open2.part);
    touch(open2.draft, event);
  }
};
function holdIndex(drafts, recordCount) {
  let hold = recordCount;
  for (const draft of drafts) if (draft.pending.size > 0 && draft.firstIndex < hold) hold = draft.firstIndex;
  for (let changed = hold < recordCount; changed; ) {
    changed = false;
    for (const draft of drafts) {
      if (draft.firstIndex < hold && draft.lastIndex >= hold) {
        hold = draft.firstIndex;
        changed = true;
      }
    }
  }
  return hold;
}
function recordIdOf(draft) {
  const id = draft.firstId !== "" ? draft.firstId : `noid-${fnv1a(JSON.stringify(draft.parts))}`;
  return draft.timestamp === void 0 ? id : `${id}@${draft.timestamp}`;
}
function toMessage(draft) {
  const message = {
    role: draft.role,
    parts: draft.parts,
    recordId: recordIdOf(draft),
    sourceIds: draft.sourceIds
  };
  if (draft.timestamp !== void 0) message.created_at = draft.timestamp;
  return message;
}
function assembleMessages(events, recordCount) {
  const assembler = new Assembler();
  for (const event of events) assembler.add(event);
  const consumed = holdIndex(assembler.drafts, recordCount);
  const messages = assembler.drafts.filter((draft) => draft.firstIndex < consumed && draft.parts.length > 0).map(toMessage);
  return { messages, consumed };
}

// src/transcript/narrow.ts
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function stringField(record2, key) {
  const value = record2[key];
  return typeof value === "string" ? value : void 0;
}
function objectField(record2, key) {
  const value = record2[key];
  return isObject(value) ? value : void 0;
}
function isoTimestamp(value) {
  if (typeof value === "number" && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? void 0 : date.toISOString();
  }
  if (typeof value === "string" && value !== "" && !Number.isNaN(Date.parse(value))) return value;
  return void 0;
}

// src/transcript/tag-blocks.ts
function tagPattern(names) {
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");
  return new RegExp(`<(/?)(${alternatives})(?=[\\s/>])[^<>]*>`, "gi");
}
function createTagBlockStripper(names, unclosed) {
  const pattern = tagPattern(names);
  return (text2) => {
    if (!text2.includes("<")) return text2;
    const cuts = findCuts(text2, new RegExp(pattern), unclosed);
    return cuts.length === 0 ? text2 : applyCuts(text2, cuts);
  };
}
function findCuts(text2, pattern, unclosed) {
  const cuts = [];
  const stack = [];
  const openCount = /* @__PURE__ */ new Map();
  for (let match = pattern.exec(text2); match !== null; match = pattern.exec(text2)) {
    const tag = match[0];
    const name = (match[2] ?? "").toLowerCase();
    const start = match.index;
    const end = start + tag.length;
    if (match[1] !== "/") {
      if (tag.endsWith("/>")) cuts.push([start, end]);
      else {
        stack.push({ name, start, end });
        openCount.set(name, (openCount.get(name) ?? 0) + 1);
      }
      continue;
    }
    if ((openCount.get(name) ?? 0) === 0) {
      cuts.push([start, end]);
      continue;
    }
    let opener = stack.pop();
    while (opener !== void 0) {
      openCount.set(opener.name, (openCount.get(opener.name) ?? 1) - 1);
      if (opener.name === name) break;
      opener = stack.pop();
    }
    if (opener !== void 0) cuts.push([opener.start, end]);
  }
  const firstUnclosed = stack[0];
  if (firstUnclosed !== void 0) {
    if (unclosed === "drop-rest") cuts.push([firstUnclosed.start, text2.length]);
    else for (const opener of stack) cuts.push([opener.start, opener.end]);
  }
  return cuts;
}
function applyCuts(text2, cuts) {
  cuts.sort((a, b) => a[0] - b[0]);
  let result = "";
  let position = 0;
  for (const [start, end] of cuts) {
    if (start > position) result += text2.slice(position, start);
    if (end > position) position = end;
  }
  return result + text2.slice(position);
}

// src/transcript/host-text.ts
var stripCodeBuddyHostBlocks = createTagBlockStripper(
  [
    "system-reminder",
    "memory_and_skills_reminder",
    "automation_system_reminder",
    "previous_user_message",
    "previous_assistant_message",
    "previous_tool_call",
    "cb_summary",
    "conversation_history_summary",
    "additional_data",
    "user_info",
    "identity_context",
    "craft_mode",
    "connector-status"
  ],
  "drop-tag"
);
var USER_QUERY_OPEN = /<user_query\s{0,8}>/gi;
var USER_QUERY_CLOSE = /<\/user_query\s{0,8}>/gi;
function userQueries(text2) {
  const open2 = new RegExp(USER_QUERY_OPEN);
  const close = new RegExp(USER_QUERY_CLOSE);
  const bodies = [];
  for (let start = open2.exec(text2); start !== null; start = open2.exec(text2)) {
    close.lastIndex = open2.lastIndex;
    const end = close.exec(text2);
    if (end === null) break;
    bodies.push(text2.slice(open2.lastIndex, end.index).trim());
    open2.lastIndex = close.lastIndex;
  }
  return bodies.filter((body) => body !== "");
}
function codeBuddyUserText(text2) {
  const stripped = text2.includes("<") ? stripCodeBuddyHostBlocks(text2) : text2;
  const queries = userQueries(stripped);
  if (queries.length === 0) return stripped.trim();
  return queries.reduce((longest, query) => query.length > longest.length ? query : longest);
}
var stripClaudeCommandOutput = createTagBlockStripper(
  ["local-command-stdout", "local-command-stderr", "local-command-caveat", "command-message"],
  "drop-tag"
);
var COMMAND_NAME = /<command-name>([^<]{0,200})<\/command-name>/;
var COMMAND_ARGS = /<command-args>([^<]{0,100000})<\/command-args>/;
var INTERRUPTION = /^\[Request interrupted by user[^\]\n]{0,40}\]$/;
function claudeCodeUserText(text2) {
  if (INTERRUPTION.test(text2.trim())) return "";
  if (!text2.includes("<")) return text2.trim();
  const name = COMMAND_NAME.exec(text2)?.[1]?.trim();
  if (name !== void 0) return `${name} ${COMMAND_ARGS.exec(text2)?.[1]?.trim() ?? ""}`.trim();
  return stripClaudeCommandOutput(text2).trim();
}

// src/transcript/tool-io.ts
function toolInputFrom(value) {
  if (value === void 0 || value === null) return null;
  if (isObject(value)) return value;
  if (typeof value !== "string") return { value };
  if (value.trim() === "") return null;
  let parsed;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { raw_arguments: value };
  }
  return isObject(parsed) ? parsed : { value: parsed };
}
function textOfBlocks(blocks) {
  const texts = [];
  for (const block of blocks) {
    if (!isObject(block)) return void 0;
    if (block.type !== "text" || typeof block.text !== "string") return void 0;
    texts.push(block.text);
  }
  return texts.join("\n");
}
function unwrapSerialisedBlocks(text2) {
  const trimmed = text2.trimStart();
  if (!trimmed.startsWith("[{")) return text2;
  let parsed;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return text2;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return text2;
  return textOfBlocks(parsed) ?? text2;
}
function toolOutputText(value) {
  if (typeof value === "string") return unwrapSerialisedBlocks(value);
  if (value === void 0 || value === null) return "";
  if (isObject(value) && typeof value.text === "string") return unwrapSerialisedBlocks(value.text);
  if (Array.isArray(value)) {
    const texts = [];
    for (const block of value) {
      if (typeof block === "string") texts.push(block);
      else if (isObject(block) && typeof block.text === "string") texts.push(block.text);
    }
    return texts.join("\n");
  }
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

// src/transcript/claude-code.ts
function blocksOf(content) {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}
function* userEvents(record2, message, base) {
  if (record2.isMeta === true || record2.isCompactSummary === true || record2.isVisibleInTranscriptOnly === true) {
    yield { ...base, kind: "moved-on" };
    return;
  }
  const texts = [];
  for (const block of blocksOf(message.content)) {
    if (!isObject(block)) continue;
    if (block.type === "tool_result") {
      yield {
        ...base,
        kind: "tool-result",
        callId: stringField(block, "tool_use_id") ?? "",
        output: toolOutputText(block.content),
        isError: block.is_error === true
      };
    } else if (block.type === "text" && typeof block.text === "string") {
      const text2 = claudeCodeUserText(block.text);
      if (text2 !== "") texts.push(text2);
    }
  }
  if (texts.length > 0) yield { ...base, kind: "user-text", texts };
}
function* assistantEvents(record2, message, base) {
  if (record2.isApiErrorMessage === true || message.model === "<synthetic>") {
    yield { ...base, kind: "moved-on" };
    return;
  }
  const stepKey = stringField(message, "id") ?? base.id;
  const texts = [];
  for (const block of blocksOf(message.content)) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string" && block.text.trim() !== "") texts.push(block.text);
    else if (block.type === "tool_use") {
      if (texts.length > 0) yield { ...base, kind: "assistant-text", stepKey, texts: texts.splice(0) };
      yield {
        ...base,
        kind: "tool-call",
        stepKey,
        callId: stringField(block, "id") ?? "",
        name: stringField(block, "name") ?? "",
        input: toolInputFrom(block.input)
      };
    }
  }
  if (texts.length > 0) yield { ...base, kind: "assistant-text", stepKey, texts };
}
function* claudeCodeEvents(records, options = {}) {
  for (let index = 0; index < records.length; index++) {
    const record2 = records[index];
    if (!isObject(record2) || record2.type !== "user" && record2.type !== "assistant") continue;
    if (record2.isSidechain === true && options.includeSidechain !== true) continue;
    const message = objectField(record2, "message");
    if (message === void 0) continue;
    const base = { index, id: stringField(record2, "uuid") ?? "" };
    const timestamp = isoTimestamp(record2.timestamp);
    if (timestamp !== void 0) base.timestamp = timestamp;
    yield* record2.type === "user" ? userEvents(record2, message, base) : assistantEvents(record2, message, base);
  }
}

// src/transcript/codebuddy.ts
var TEXT_PART_TYPES = /* @__PURE__ */ new Set(["input_text", "output_text", "text"]);
function contentTexts(content) {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const texts = [];
  for (const part of content) {
    if (isObject(part) && TEXT_PART_TYPES.has(String(part.type)) && typeof part.text === "string") texts.push(part.text);
  }
  return texts;
}
function isHostAuthored(record2) {
  const meta = objectField(record2, "providerData");
  if (meta !== void 0) {
    const flags = ["isMeta", "skipRun", "isCompactInternal", "isSummary", "isCompacted"];
    if (flags.some((flag) => meta[flag] === true)) return true;
    if (meta.agent === "compact") return true;
  }
  return record2.logicalParentId !== void 0 && record2.parentId === void 0 && record2.role === "user";
}
function stepKeyOf(record2, id) {
  return stringField(objectField(record2, "providerData") ?? {}, "messageId") ?? id;
}
function messageEvent(record2, base) {
  const role = record2.role;
  if (role !== "user" && role !== "assistant" || isHostAuthored(record2)) return { ...base, kind: "moved-on" };
  const raw = contentTexts(record2.content);
  const texts = (role === "user" ? raw.map(codeBuddyUserText) : raw).filter((text2) => text2.trim() !== "");
  if (texts.length === 0) return role === "user" ? { ...base, kind: "moved-on" } : void 0;
  return role === "user" ? { ...base, kind: "user-text", texts } : { ...base, kind: "assistant-text", stepKey: stepKeyOf(record2, base.id), texts };
}
function callEvent(record2, base) {
  let name = stringField(record2, "name") ?? "";
  let input = toolInputFrom(record2.arguments);
  if (name === "DeferExecuteTool" && input !== null && typeof input.toolName === "string") {
    name = input.toolName;
    input = isObject(input.params) ? input.params : null;
  }
  return { ...base, kind: "tool-call", stepKey: stepKeyOf(record2, base.id), callId: stringField(record2, "callId") ?? "", name, input };
}
function resultEvent(record2, base) {
  const toolResult = objectField(objectField(record2, "providerData") ?? {}, "toolResult");
  const status = stringField(record2, "status");
  const failed = status !== void 0 && status !== "completed" && status !== "success" || toolResult?.error !== void 0;
  const event = {
    ...base,
    kind: "tool-result",
    callId: stringField(record2, "callId") ?? "",
    output: toolOutputText(record2.output ?? toolResult?.content),
    isError: failed
  };
  const name = stringField(record2, "name");
  if (name !== void 0 && name !== "DeferExecuteTool") event.name = name;
  return event;
}
function eventOf(record2, index) {
  if (!isObject(record2)) return void 0;
  const base = { index, id: stringField(record2, "id") ?? "" };
  const timestamp = isoTimestamp(record2.timestamp);
  if (timestamp !== void 0) base.timestamp = timestamp;
  switch (record2.type) {
    case "message":
      return messageEvent(record2, base);
    case "function_call":
      return callEvent(record2, base);
    case "function_call_result":
      return resultEvent(record2, base);
    default:
      return void 0;
  }
}
function* codeBuddyEvents(records) {
  for (let index = 0; index < records.length; index++) {
    const event = eventOf(records[index], index);
    if (event !== void 0) yield event;
  }
}

// src/transcript/decode.ts
function decodeCodeBuddyRecords(records) {
  return assembleMessages(codeBuddyEvents(records), records.length);
}
function decodeClaudeCodeRecords(records, options = {}) {
  return assembleMessages(claudeCodeEvents(records, options), records.length);
}
var CODEBUDDY_TYPES = /* @__PURE__ */ new Set(["message", "function_call", "function_call_result", "reasoning", "turn-metrics"]);
function detectTranscriptFormat(records) {
  for (const record2 of records) {
    if (!isObject(record2) || typeof record2.type !== "string") continue;
    if (CODEBUDDY_TYPES.has(record2.type)) return "codebuddy";
    if ((record2.type === "user" || record2.type === "assistant") && isObject(record2.message)) return "claude-code";
  }
  return void 0;
}
function decodeTranscriptRecords(records, options = {}) {
  const format = options.format ?? detectTranscriptFormat(records);
  if (format === "codebuddy") return { ...decodeCodeBuddyRecords(records), format };
  if (format === "claude-code") return { ...decodeClaudeCodeRecords(records, options), format };
  return { messages: [], consumed: records.length, format };
}

// src/transcript/secrets.ts
function redactionMarker(kind) {
  return `[REDACTED:${kind}]`;
}
var TOKEN_RULES = [
  {
    kind: (match) => match.startsWith("sk-ant-") ? "anthropic-key" : "openai-key",
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*/g
  },
  { kind: "stripe-key", pattern: /(?<![A-Za-z0-9_])[rs]k_(?:live|test)_[A-Za-z0-9]{16}[A-Za-z0-9]*/g },
  { kind: "aws-access-key", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: "github-token", pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}/g },
  { kind: "github-token", pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}/g },
  { kind: "slack-token", pattern: /(?<![A-Za-z0-9-])xox[abprs]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*/g },
  { kind: "google-api-key", pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g },
  { kind: "npm-token", pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}/g },
  {
    kind: "jwt",
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*/g
  },
  { kind: "bearer-token", pattern: /\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*/gi, keepPrefixGroup: 1 },
  {
    kind: "url-password",
    pattern: /(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@]{1,128}:)[^\s/@]{1,256}(?=@)/gi,
    keepPrefixGroup: 1
  },
  {
    kind: "aws-secret-key",
    pattern: /(aws_secret_access_key["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    keepPrefixGroup: 1
  }
];
var ASSIGNMENT_PATTERN = /(pass(?:word|wd|phrase)|secret|api[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)([A-Za-z0-9_-]{0,32})(["']?[ \t]{0,3}[:=][ \t]{0,3})(?:"(?!\[REDACTED)([^"\n]{3,512})"|'(?!\[REDACTED)([^'\n]{3,512})'|(?<==)([^\s"'`&;,<>()[\]{}]{3,512}))/gi;
function credentialKind(word) {
  const lower = word.toLowerCase();
  if (lower.startsWith("pass")) return "password";
  if (lower.includes("secret")) return "secret";
  if (lower.startsWith("api")) return "api-key";
  if (lower.startsWith("private")) return "private-key";
  return "token";
}
function redactAssignments(text2) {
  return text2.replace(
    ASSIGNMENT_PATTERN,
    (match, word, suffix, separator, dq, sq, bare) => {
      if (/^[a-z]/.test(suffix) && word === word.toLowerCase()) return match;
      const marker = redactionMarker(credentialKind(word));
      const head = `${word}${suffix}${separator}`;
      if (dq !== void 0) return `${head}"${marker}"`;
      if (sq !== void 0) return `${head}'${marker}'`;
      return bare === void 0 ? match : `${head}${marker}`;
    }
  );
}
var PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,64}PRIVATE KEY-----/g;
var PEM_END = /-----END [A-Z0-9 ]{0,64}PRIVATE KEY-----/g;
function redactPrivateKeyBlocks(text2) {
  if (!text2.includes("PRIVATE KEY-----")) return text2;
  const begin = new RegExp(PEM_BEGIN);
  const end = new RegExp(PEM_END);
  const marker = redactionMarker("private-key");
  let result = "";
  let position = 0;
  for (let opened = begin.exec(text2); opened !== null; opened = begin.exec(text2)) {
    result += text2.slice(position, opened.index) + marker;
    end.lastIndex = opened.index + opened[0].length;
    const closed = end.exec(text2);
    if (closed === null) return result;
    position = closed.index + closed[0].length;
    begin.lastIndex = position;
  }
  return result + text2.slice(position);
}
function applyRule(text2, rule) {
  return text2.replace(rule.pattern, (match, ...groups) => {
    const kind = typeof rule.kind === "function" ? rule.kind(match) : rule.kind;
    const prefix = rule.keepPrefixGroup === void 0 ? "" : String(groups[rule.keepPrefixGroup - 1] ?? "");
    return prefix + redactionMarker(kind);
  });
}
function redactSecrets(text2) {
  let result = redactPrivateKeyBlocks(text2);
  for (const rule of TOKEN_RULES) result = applyRule(result, rule);
  return redactAssignments(result);
}
var SECRET_KEY_NAME = /^(?:[A-Za-z0-9]*[_-])?(pass(?:word|wd|phrase)|secret|api[_-]?key|apikey|token|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)$/i;
function secretKindForKey(key) {
  if (key.length > 64) return void 0;
  const snake = key.replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  const word = SECRET_KEY_NAME.exec(snake)?.[1];
  return word === void 0 ? void 0 : credentialKind(word);
}

// src/transcript/privacy.ts
var DEFAULT_MAX_CHARS = 1e6;
var MAX_INPUT_DEPTH = 32;
var stripInjectedBlocks = createTagBlockStripper(
  ["system-reminder", "openviking-context", "relevant-memories", "relevant-memory"],
  "drop-tag"
);
var stripPrivateBlocks = createTagBlockStripper(["private"], "drop-rest");
function sanitizeText(text2) {
  const withoutBlocks = stripPrivateBlocks(stripInjectedBlocks(text2.includes("\0") ? text2.replaceAll("\0", "") : text2));
  return redactSecrets(withoutBlocks).trim();
}
function capText(text2, maxChars) {
  if (text2.length <= maxChars) return text2;
  const marker = `
\u2026[truncated: ${text2.length} chars in total]`;
  let keep = maxChars - marker.length;
  if (keep <= 0) return text2.slice(0, Math.max(0, maxChars));
  const last = text2.charCodeAt(keep - 1);
  if (last >= 55296 && last <= 56319) keep -= 1;
  return text2.slice(0, keep) + marker;
}
function limitsOf(options) {
  return {
    text: options.maxTextChars ?? DEFAULT_MAX_CHARS,
    toolOutput: options.maxToolOutputChars ?? DEFAULT_MAX_CHARS
  };
}
function sanitizeValue(value, key, depth, limits) {
  if (typeof value === "string") {
    const kind = key === void 0 || value === "" ? void 0 : secretKindForKey(key);
    return kind === void 0 ? capText(sanitizeText(value), limits.text) : redactionMarker(kind);
  }
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_INPUT_DEPTH) return "[truncated: nested too deep]";
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, void 0, depth + 1, limits));
  const result = {};
  for (const [name, item] of Object.entries(value)) result[name] = sanitizeValue(item, name, depth + 1, limits);
  return result;
}
function sanitizePart(part, limits) {
  if (part.type === "text") {
    const text2 = capText(sanitizeText(part.text), limits.text);
    return text2 === "" ? void 0 : { type: "text", text: text2 };
  }
  const result = { ...part };
  if (part.tool_input !== void 0 && part.tool_input !== null) {
    result.tool_input = sanitizeValue(part.tool_input, void 0, 0, limits);
  }
  if (part.tool_output !== void 0) result.tool_output = capText(sanitizeText(part.tool_output), limits.toolOutput);
  return result;
}
function sanitizeParts(parts, options = {}) {
  const limits = limitsOf(options);
  const result = [];
  for (const part of parts) {
    const clean = sanitizePart(part, limits);
    if (clean !== void 0) result.push(clean);
  }
  return result;
}
function sanitizeMessage(message, options = {}) {
  const parts = sanitizeParts(message.parts, options);
  return parts.length === 0 ? void 0 : { ...message, parts };
}

// src/transcript/reader.ts
import { open as openFile } from "node:fs/promises";

// src/transcript/line-collector.ts
var HEAD_BYTES = 256;
var NEWLINE = 10;
function lineHash(head, length) {
  return `${fnv1a(head.toString("latin1"))}:${length}`;
}
var LineCollector = class {
  records = [];
  spans = [];
  skippedLines = 0;
  /** Offset just after the last complete line. */
  end;
  lastLineStart;
  lastLineHash;
  lastRecordId;
  pieces = [];
  constructor(start) {
    this.end = start.offset;
    this.lastLineStart = start.lastLineStart;
    this.lastLineHash = start.lastLineHash;
    this.lastRecordId = start.lastRecordId;
  }
  /** Feeds the next chunk; returns false once `stopAfter` bytes past `from` are consumed. */
  feed(chunk, from, stopAfter) {
    let scan = 0;
    for (let newline = chunk.indexOf(NEWLINE, scan); newline !== -1; newline = chunk.indexOf(NEWLINE, scan)) {
      this.pieces.push(chunk.subarray(scan, newline + 1));
      const line = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces);
      this.pieces = [];
      this.take(line);
      scan = newline + 1;
      if (this.end - from >= stopAfter) return false;
    }
    if (scan < chunk.length) this.pieces.push(chunk.subarray(scan));
    return true;
  }
  take(line) {
    const start = this.end;
    this.end = start + line.length;
    this.lastLineStart = start;
    this.lastLineHash = lineHash(line.subarray(0, HEAD_BYTES), line.length);
    const text2 = line.toString("utf8");
    if (text2.trim() === "") return;
    let value;
    try {
      value = JSON.parse(text2);
    } catch {
      this.skippedLines += 1;
      return;
    }
    if (!isObject(value)) {
      this.skippedLines += 1;
      return;
    }
    const id = stringField(value, "id") ?? stringField(value, "uuid");
    this.lastRecordId = id;
    const span = { start, end: this.end, hash: this.lastLineHash };
    if (id !== void 0) span.id = id;
    this.records.push(value);
    this.spans.push(span);
  }
};

// src/transcript/reader.ts
var DEFAULT_CHUNK_BYTES = 1 << 20;
function freshCursor(path, fileId, size) {
  return { path, fileId, size, offset: 0, lastLineStart: 0, lastLineHash: "" };
}
async function readAt(file, position, length, counter2) {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  counter2.bytes += filled;
  return buffer.subarray(0, filled);
}
async function boundaryHolds(file, cursor, counter2) {
  const length = cursor.offset - cursor.lastLineStart;
  if (length <= 0) return false;
  const head = await readAt(file, cursor.lastLineStart, Math.min(length, HEAD_BYTES), counter2);
  const last = length <= HEAD_BYTES ? head.subarray(length - 1) : await readAt(file, cursor.offset - 1, 1, counter2);
  return last[0] === NEWLINE && lineHash(head.subarray(0, Math.min(length, HEAD_BYTES)), length) === cursor.lastLineHash;
}
async function startingPoint(file, path, fileId, size, cursor, counter2) {
  const fresh = freshCursor(path, fileId, size);
  if (cursor === void 0 || cursor.path !== path || cursor.offset <= 0) return { start: fresh };
  if (cursor.fileId !== fileId) return { start: fresh, reason: "replaced" };
  if (size < cursor.offset) return { start: fresh, reason: "shrunk" };
  if (!await boundaryHolds(file, cursor, counter2)) return { start: fresh, reason: "boundary-mismatch" };
  return { start: cursor };
}
function cursorFrom(base, collector, size) {
  const cursor = {
    path: base.path,
    fileId: base.fileId,
    size,
    offset: collector.end,
    lastLineStart: collector.lastLineStart,
    lastLineHash: collector.lastLineHash
  };
  if (collector.lastRecordId !== void 0) cursor.lastRecordId = collector.lastRecordId;
  return cursor;
}
function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
function failedRead(path, cursor, error) {
  const start = cursor ?? freshCursor(path, "", 0);
  return {
    records: [],
    spans: [],
    startCursor: start,
    nextCursor: start,
    rescanned: false,
    skippedLines: 0,
    bytesRead: 0,
    atEnd: true,
    error: errorMessage(error)
  };
}
async function readOpenFile(file, path, cursor, options) {
  const counter2 = { bytes: 0 };
  const stats = await file.stat({ bigint: true });
  const size = Number(stats.size);
  const { start, reason } = await startingPoint(file, path, `${stats.dev}:${stats.ino}`, size, cursor, counter2);
  const collector = new LineCollector(start);
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const stopAfter = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let position = start.offset;
  let atEnd = true;
  while (position < size) {
    const chunk = await readAt(file, position, Math.min(chunkBytes, size - position), counter2);
    if (chunk.length === 0) break;
    position += chunk.length;
    if (!collector.feed(chunk, start.offset, stopAfter)) {
      atEnd = collector.end >= size;
      break;
    }
  }
  const read = {
    records: collector.records,
    spans: collector.spans,
    startCursor: start,
    nextCursor: cursorFrom(start, collector, size),
    rescanned: reason !== void 0,
    skippedLines: collector.skippedLines,
    bytesRead: counter2.bytes,
    atEnd
  };
  if (reason !== void 0) read.rescanReason = reason;
  return read;
}
async function withFile(path, options, work, onError) {
  let file;
  try {
    file = await (options.openFile ?? ((target) => openFile(target, "r")))(path);
  } catch (error) {
    return onError(error);
  }
  try {
    return await work(file);
  } catch (error) {
    return onError(error);
  } finally {
    await file.close().catch(() => void 0);
  }
}
async function readTranscriptTail(path, cursor, options = {}) {
  return withFile(
    path,
    options,
    (file) => readOpenFile(file, path, cursor, options),
    (error) => failedRead(path, cursor, error)
  );
}
function cursorAfterRecords(read, count3) {
  if (count3 >= read.records.length) return read.nextCursor;
  const span = count3 <= 0 ? void 0 : read.spans[count3 - 1];
  if (span === void 0) return read.startCursor;
  const cursor = {
    path: read.nextCursor.path,
    fileId: read.nextCursor.fileId,
    size: read.nextCursor.size,
    offset: span.end,
    lastLineStart: span.start,
    lastLineHash: span.hash
  };
  if (span.id !== void 0) cursor.lastRecordId = span.id;
  return cursor;
}

// src/capture/plan.ts
var MAX_BATCH = 100;
function planItems(messages, options) {
  const skipEnd = options.skipThrough === void 0 ? 0 : lastIndexOfRecord(messages, options.skipThrough) + 1;
  return messages.map((decoded, index) => {
    const item = { recordId: decoded.recordId };
    if (decoded.sourceIds[0] !== void 0) item.firstSourceId = decoded.sourceIds[0];
    const skip = skipReason(decoded, index < skipEnd, options);
    if (skip !== void 0) item.skip = skip;
    else {
      const clean = sanitizeMessage(toWire(decoded), options.privacy);
      if (clean === void 0) item.skip = "empty";
      else item.message = clean;
    }
    return item;
  });
}
function skipReason(decoded, beforeAck, options) {
  if (beforeAck || options.recentIds.has(decoded.recordId)) return "acknowledged";
  if (decoded.role === "assistant" && !options.captureAssistantTurns) return "assistant-off";
  return void 0;
}
function lastIndexOfRecord(messages, recordId) {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]?.recordId === recordId) return index;
  return -1;
}
function toWire(decoded) {
  const message = { role: decoded.role, parts: decoded.parts };
  if (decoded.created_at !== void 0) message.created_at = decoded.created_at;
  if (decoded.peer_id !== void 0) message.peer_id = decoded.peer_id;
  return message;
}
function nextBatch(items, from, maxSize) {
  const batch = { start: from, end: from, messages: [], recordIds: [] };
  for (let index = from; index < items.length && batch.messages.length < Math.max(1, maxSize); index++) {
    const message = items[index]?.message;
    if (message === void 0) continue;
    batch.messages.push(message);
    batch.recordIds.push(items[index].recordId);
    batch.end = index + 1;
  }
  return batch.messages.length === 0 ? void 0 : batch;
}
function resumeRecordIndex(items, ackedEnd, recordIds, consumed) {
  if (ackedEnd >= items.length) return consumed;
  let position = 0;
  let known = 0;
  for (let index = 0; index <= ackedEnd; index++) {
    const id = items[index]?.firstSourceId;
    if (id === void 0) continue;
    const found = recordIds.indexOf(id, position);
    if (found === -1 || found >= consumed) continue;
    position = found;
    known = found;
  }
  return known;
}
function rememberIds(recentIds, added, limit) {
  if (added.length === 0) return [...recentIds];
  return [...recentIds, ...added].slice(-limit);
}

// src/capture/state.ts
import { readdir as readdir2 } from "node:fs/promises";
import { join as join7 } from "node:path";

// src/store/fastHash.ts
function hash64Hex(text2) {
  let h1 = 3735928559;
  let h2 = 1103547991;
  for (let i = 0; i < text2.length; i++) {
    const code = text2.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ h1 >>> 16, 2246822507) ^ Math.imul(h2 ^ h2 >>> 13, 3266489909);
  h2 = Math.imul(h2 ^ h2 >>> 16, 2246822507) ^ Math.imul(h1 ^ h1 >>> 13, 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}
var counter = 0;
function uniqueToken() {
  counter = (counter + 1) % 1048576;
  return `${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${Math.floor(Math.random() * 4294967296).toString(36)}`;
}

// src/store/atomic.ts
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join as join3 } from "node:path";

// src/store/fsUtil.ts
import { stat, utimes } from "node:fs/promises";
function errorCode(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const code = error.code;
  return typeof code === "string" ? code : void 0;
}
function errorMessage2(error) {
  return error instanceof Error ? error.message : String(error);
}
function hasErrorCode(error, ...codes) {
  const code = errorCode(error);
  return code !== void 0 && codes.includes(code);
}
async function setMtime(path, atMs) {
  await utimes(path, atMs / 1e3, atMs / 1e3);
}
async function mtimeOf(path) {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return void 0;
    throw error;
  }
}

// src/store/atomic.ts
var PRIVATE_FILE_MODE = 384;
var PRIVATE_DIR_MODE = 448;
var TEMP_SUFFIX = ".tmp";
async function ensurePrivateDir(dir) {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
function tempPathFor(path) {
  const unique = `${process.pid}.${uniqueToken()}`;
  return join3(dirname(path), `${basename(path)}.${unique}${TEMP_SUFFIX}`);
}
async function writeFileAtomic(path, data, options = {}) {
  await ensurePrivateDir(dirname(path));
  const temp = tempPathFor(path);
  try {
    const handle = await open(temp, "wx", PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data, "utf8");
      if (options.fsync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => void 0);
    throw error;
  }
}
async function writeJsonAtomic(path, value, options = {}) {
  await writeFileAtomic(path, JSON.stringify(value), options);
}
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

// src/store/lock.ts
import { mkdir as mkdir2, readdir, readFile as readFile2, rename as rename2, rm, rmdir, unlink as unlink2, writeFile } from "node:fs/promises";
import { hostname as osHostname } from "node:os";
import { dirname as dirname2, join as join4 } from "node:path";
var OWNER_SUFFIX = ".owner";
var DEFAULT_LOCK_POLL_MS = 25;
async function tryLock(lockPath, options) {
  try {
    return await attemptWithReclaim(lockPath, options);
  } catch (error) {
    return { ok: false, reason: "error", message: errorMessage2(error) };
  }
}
async function withLock(lockPath, options, fn) {
  const acquired = await acquire(lockPath, options);
  if (!acquired.ok) return acquired;
  try {
    return { ok: true, value: await fn() };
  } finally {
    await acquired.handle.release();
  }
}
async function acquire(lockPath, options) {
  const sleep = options.sleep ?? defaultSleep;
  const pollMs = options.pollMs ?? DEFAULT_LOCK_POLL_MS;
  const deadline = options.now() + options.timeoutMs;
  const maxSleeps = Math.ceil(options.timeoutMs / Math.max(1, pollMs / 2)) + 1;
  for (let sleeps = 0; ; sleeps++) {
    const attempt = await tryLock(lockPath, options);
    if (attempt.ok) return attempt;
    if (attempt.reason === "error") return attempt;
    const remaining = deadline - options.now();
    if (remaining <= 0 || sleeps >= maxSleeps) return { ok: false, reason: "timeout", holder: attempt.holder };
    await sleep(Math.min(remaining, pollMs * (0.5 + Math.random())));
  }
}
function defaultSleep(ms) {
  return new Promise((resolve2) => setTimeout(resolve2, ms));
}
function defaultIsProcessAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}
var MAX_RECLAIM_ROUNDS = 4;
async function attemptWithReclaim(lockPath, options) {
  await ensurePrivateDir(dirname2(lockPath));
  let holder;
  for (let round = 0; round < MAX_RECLAIM_ROUNDS; round++) {
    const handle = await attemptAcquire(lockPath, options);
    if (handle) return { ok: true, handle };
    const inspection = await inspectAndReclaim(lockPath, options);
    if (inspection.kind === "held") {
      holder = inspection.holder;
      break;
    }
  }
  return { ok: false, reason: "busy", holder };
}
async function attemptAcquire(lockPath, options) {
  const nonce = uniqueToken();
  const staging = `${lockPath}.${nonce}.staging`;
  const ownerName = `${nonce}${OWNER_SUFFIX}`;
  await mkdir2(staging, { mode: PRIVATE_DIR_MODE });
  try {
    const owner = { pid: options.pid ?? process.pid, host: options.hostname ?? osHostname(), nonce };
    await writeFile(join4(staging, ownerName), JSON.stringify(owner), { mode: PRIVATE_FILE_MODE, flag: "wx" });
    await setMtime(join4(staging, ownerName), options.now());
    await rename2(staging, lockPath);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (hasErrorCode(error, "EEXIST", "ENOTEMPTY", "EPERM", "EACCES", "ENOTDIR", "EISDIR")) return void 0;
    throw error;
  }
  return ownedLock(lockPath, join4(lockPath, ownerName), options);
}
function ownedLock(lockPath, ownerPath, options) {
  return {
    async refresh() {
      try {
        await setMtime(ownerPath, options.now());
        return true;
      } catch {
        return false;
      }
    },
    async release() {
      let held = true;
      try {
        await unlink2(ownerPath);
      } catch {
        held = false;
      }
      await rmdir(lockPath).catch(() => void 0);
      return held;
    }
  };
}
async function inspectAndReclaim(lockPath, options) {
  let entries;
  try {
    entries = await readdir(lockPath);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { kind: "retry" };
    throw error;
  }
  const ownerName = entries.find((name) => name.endsWith(OWNER_SUFFIX));
  if (ownerName === void 0) {
    await Promise.all(entries.map((name) => rm(join4(lockPath, name), { recursive: true, force: true })));
    await rmdir(lockPath).catch(() => void 0);
    return { kind: "retry" };
  }
  const ownerPath = join4(lockPath, ownerName);
  const holder = await readHolder(ownerPath);
  if (holder === void 0) return { kind: "retry" };
  if (!isStale(holder, options)) return { kind: "held", holder };
  await unlink2(ownerPath).catch(() => void 0);
  await rmdir(lockPath).catch(() => void 0);
  return { kind: "retry" };
}
async function readHolder(ownerPath) {
  const heartbeatAt = await mtimeOf(ownerPath);
  if (heartbeatAt === void 0) return void 0;
  const holder = { heartbeatAt };
  const raw = await readFile2(ownerPath, "utf8").catch(() => "");
  const parsed = parseOwner(raw);
  if (parsed.pid !== void 0) holder.pid = parsed.pid;
  if (parsed.host !== void 0) holder.host = parsed.host;
  return holder;
}
function parseOwner(raw) {
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null) return {};
  const { pid, host } = value;
  return {
    ...typeof pid === "number" && Number.isInteger(pid) && pid > 0 ? { pid } : {},
    ...typeof host === "string" ? { host } : {}
  };
}
function isStale(holder, options) {
  if (holder.heartbeatAt !== void 0 && options.now() - holder.heartbeatAt > options.staleMs) return true;
  const sameHost = holder.host === (options.hostname ?? osHostname());
  if (holder.pid === void 0 || !sameHost) return false;
  return !(options.isProcessAlive ?? defaultIsProcessAlive)(holder.pid);
}

// src/store/sessionState.ts
var SESSION_STATE_VERSION = 1;
async function loadSessionState(file, validate) {
  const read = await readJsonDetailed(file);
  if (read.status === "missing") return { status: "absent" };
  if (read.status !== "ok") return absent(`${read.status} state file ${file}: ${read.reason}`);
  const value = read.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return absent(`state file ${file} is not an object`);
  const { version, ...fields } = value;
  if (version !== SESSION_STATE_VERSION) {
    return absent(`state file ${file} has version ${JSON.stringify(version)}; this plugin reads ${SESSION_STATE_VERSION}`);
  }
  let state;
  try {
    state = validate(fields);
  } catch (error) {
    return absent(`validator threw on ${file}: ${errorMessage2(error)}`);
  }
  return state === void 0 ? absent(`state file ${file} failed validation`) : { status: "found", state };
}
function absent(warning) {
  return { status: "absent", warning };
}
async function saveSessionState(file, state) {
  try {
    const { version: _ignored, ...fields } = state;
    await writeJsonAtomic(file, { version: SESSION_STATE_VERSION, ...fields });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: errorMessage2(error) };
  }
}

// src/capture/paths.ts
import { join as join6 } from "node:path";

// src/store/paths.ts
import { isAbsolute as isAbsolute2, join as join5 } from "node:path";
var DATA_DIR_VARIABLES = ["CODEBUDDY_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA", "OPENVIKING_CODEBUDDY_DATA_DIR"];
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== void 0) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join5(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join5(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join5(homeDir, value.slice(2)) : value;
  return isAbsolute2(expanded) ? expanded : void 0;
}
var KEY_PREFIX_MAX_CHARS = 48;
var KEY_HASH_HEX_CHARS = 16;
function safeFileKey(id) {
  const prefix = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, KEY_PREFIX_MAX_CHARS) || "id";
  const hash = hash64Hex(id).slice(0, KEY_HASH_HEX_CHARS);
  return `${prefix}-${hash}`;
}
function storeLayout(root) {
  return {
    root,
    sessionsDir: join5(root, "sessions"),
    locksDir: join5(root, "locks"),
    queueDir: join5(root, "queue"),
    cacheDir: join5(root, "cache")
  };
}
function sessionLockFile(layout, sessionKey, purpose = "state") {
  return join5(layout.locksDir, `${purpose}-${safeFileKey(sessionKey)}.lock`);
}

// src/capture/paths.ts
function captureDir(dataDir) {
  return join6(dataDir, "capture");
}
function captureStateFile(dataDir, ovSessionId2) {
  return join6(captureDir(dataDir), `${safeFileKey(ovSessionId2)}.json`);
}
function requestDir(dataDir, ovSessionId2) {
  return join6(captureDir(dataDir), `${safeFileKey(ovSessionId2)}.requests`);
}

// src/capture/state.ts
var RECENT_IDS_LIMIT = 1e3;
var COUNT_KEYS = ["sent", "queued", "deadLettered", "skipped", "commits"];
function emptyCaptureState(identity) {
  return {
    ...identity,
    recentIds: [],
    queued: [],
    capturedSinceCommit: 0,
    counts: { sent: 0, queued: 0, deadLettered: 0, skipped: 0, commits: 0 }
  };
}
async function loadCaptureState(dataDir, ovSessionId2) {
  const loaded = await loadSessionState(captureStateFile(dataDir, ovSessionId2), narrowCaptureState);
  return loaded.status === "found" ? loaded.state : void 0;
}
function saveCaptureState(dataDir, state) {
  return saveSessionState(captureStateFile(dataDir, state.ovSessionId), state);
}
async function listCaptureStates(dataDir) {
  let names;
  try {
    names = await readdir2(captureDir(dataDir));
  } catch {
    return [];
  }
  const states = [];
  for (const name of names.filter((entry) => entry.endsWith(".json")).sort()) {
    const loaded = await loadSessionState(join7(captureDir(dataDir), name), narrowCaptureState);
    if (loaded.status === "found") states.push(loaded.state);
  }
  return states;
}
function narrowCaptureState(fields) {
  const { ovSessionId: ovSessionId2, hostSessionId, workspace } = fields;
  if (typeof ovSessionId2 !== "string" || ovSessionId2 === "") return void 0;
  if (typeof hostSessionId !== "string" || typeof workspace !== "string") return void 0;
  const state = emptyCaptureState({ ovSessionId: ovSessionId2, hostSessionId, workspace });
  state.recentIds = stringList(fields.recentIds).slice(-RECENT_IDS_LIMIT);
  state.queued = stringList(fields.queued);
  state.capturedSinceCommit = count(fields.capturedSinceCommit);
  const counts = isRecord(fields.counts) ? fields.counts : {};
  for (const key of COUNT_KEYS) state.counts[key] = count(counts[key]);
  copyString(fields, state, "agentId");
  copyString(fields, state, "transcriptPath");
  copyString(fields, state, "lastAckedRecordId");
  copyString(fields, state, "lastError");
  if (fields.format === "codebuddy" || fields.format === "claude-code") state.format = fields.format;
  if (fields.serialOnly === true) state.serialOnly = true;
  if (typeof fields.lastCaptureAt === "number") state.lastCaptureAt = fields.lastCaptureAt;
  if (typeof fields.lastCommitAt === "number") state.lastCommitAt = fields.lastCommitAt;
  const cursor = narrowCursor(fields.cursor);
  if (cursor !== void 0) state.cursor = cursor;
  const inflight = narrowInflight(fields.inflight);
  if (inflight !== void 0) state.inflight = inflight;
  if (isRecord(fields.enqueueIntent) && typeof fields.enqueueIntent.fingerprint === "string") {
    state.enqueueIntent = { fingerprint: fields.enqueueIntent.fingerprint, recordIds: stringList(fields.enqueueIntent.recordIds) };
  }
  return state;
}
function narrowCursor(value) {
  if (!isRecord(value)) return void 0;
  const { path, fileId, size, offset, lastLineStart, lastLineHash, lastRecordId } = value;
  if (typeof path !== "string" || typeof fileId !== "string" || typeof lastLineHash !== "string") return void 0;
  if (!isCount(size) || !isCount(offset) || !isCount(lastLineStart)) return void 0;
  const cursor = { path, fileId, size, offset, lastLineStart, lastLineHash };
  if (typeof lastRecordId === "string") cursor.lastRecordId = lastRecordId;
  return cursor;
}
function narrowInflight(value) {
  if (!isRecord(value) || typeof value.fingerprint !== "string" || !isRecord(value.before)) return void 0;
  const { live, total } = value.before;
  if (!isCount(live)) return void 0;
  const before = { live };
  if (isCount(total)) before.total = total;
  return {
    fingerprint: value.fingerprint,
    recordIds: stringList(value.recordIds),
    before,
    queued: value.queued === true,
    startedAt: typeof value.startedAt === "number" ? value.startedAt : 0
  };
}
function isCount(value) {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
function count(value) {
  return isCount(value) ? value : 0;
}
function stringList(value) {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}
function copyString(from, to, key) {
  const value = from[key];
  if (typeof value === "string") to[key] = value;
}

// src/capture/ack.ts
function acknowledge(state, recordIds, kind, now) {
  if (recordIds.length === 0) return;
  if (recordIds.every((id) => state.recentIds.includes(id))) return;
  state.recentIds = rememberIds(state.recentIds, recordIds, RECENT_IDS_LIMIT);
  state.lastAckedRecordId = recordIds[recordIds.length - 1];
  state.counts[kind] += recordIds.length;
  if (kind !== "deadLettered") state.capturedSinceCommit += recordIds.length;
  state.lastCaptureAt = now;
}
function recordCommit(state, now) {
  state.lastCommitAt = now;
  state.capturedSinceCommit = 0;
  state.counts.commits += 1;
}

// src/capture/queueing.ts
import { stat as stat2 } from "node:fs/promises";
import { basename as basename2, join as join11 } from "node:path";

// src/store/queue.ts
import { join as join10 } from "node:path";

// src/store/queueFiles.ts
import { createHash } from "node:crypto";
import { readdir as readdir3 } from "node:fs/promises";
import { join as join8 } from "node:path";
var QUEUE_ENTRY_TYPES = ["addMessages", "commit"];
var PENDING_SUFFIX = ".json";
var CLAIMED_SUFFIX = ".processing";
var TIME_DIGITS = 15;
var SEQ_DIGITS = 6;
var MAX_SEQ = 10 ** SEQ_DIGITS - 1;
var KEY_CHARS = 32;
function queuePaths(queueDir) {
  return {
    pendingDir: join8(queueDir, "pending"),
    deadDir: join8(queueDir, "dead"),
    enqueueLock: join8(queueDir, "enqueue.lock"),
    replayLock: join8(queueDir, "replay.lock")
  };
}
function stableStringify(value) {
  return JSON.stringify(value, (_key, item) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const record2 = item;
    return Object.fromEntries(Object.keys(record2).sort().map((key) => [key, record2[key]]));
  });
}
function dedupKeyOf(type, sessionId, payload) {
  return createHash("sha256").update(`${type}
${sessionId}
${stableStringify(payload)}`, "utf8").digest("hex");
}
function keyPrefixOf(dedupKey) {
  return dedupKey.slice(0, KEY_CHARS);
}
function entryBaseName(entry) {
  return `${pad(entry.createdAt, TIME_DIGITS)}-${pad(entry.seq, SEQ_DIGITS)}-${keyPrefixOf(entry.dedupKey)}`;
}
function deadLetterName(deadAt, originalBase) {
  return `${pad(deadAt, TIME_DIGITS)}-${originalBase}${PENDING_SUFFIX}`;
}
function pad(value, digits) {
  return String(Math.max(0, Math.trunc(value))).padStart(digits, "0");
}
function parseEntryName(name) {
  const claimed = name.endsWith(CLAIMED_SUFFIX);
  if (!claimed && !name.endsWith(PENDING_SUFFIX)) return void 0;
  const base = name.slice(0, -(claimed ? CLAIMED_SUFFIX : PENDING_SUFFIX).length);
  const match = /^(\d{15})-(\d{6})-([0-9a-f]{32})$/.exec(base);
  if (!match) return void 0;
  return { base, createdAt: Number(match[1]), keyPrefix: match[3], claimed };
}
function toQueueEntry(value) {
  if (typeof value !== "object" || value === null) return void 0;
  const v = value;
  const validType = typeof v.type === "string" && QUEUE_ENTRY_TYPES.includes(v.type);
  if (!validType || typeof v.sessionId !== "string" || typeof v.dedupKey !== "string" || !("payload" in v)) return void 0;
  if (!isCount2(v.createdAt) || !isCount2(v.seq) || !isCount2(v.attempts)) return void 0;
  if (v.lastError !== void 0 && typeof v.lastError !== "string") return void 0;
  return v;
}
function isCount2(value) {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
var MAX_ERROR_CHARS = 500;
function redactError(message) {
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, "<url>").replace(/\b(bearer)\s+\S+/gi, "$1 <redacted>").slice(0, MAX_ERROR_CHARS);
}
async function listDir(dir) {
  try {
    return await readdir3(dir);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return [];
    throw error;
  }
}

// src/store/queueReplay.ts
import { readFile as readFile3, rename as rename3, unlink as unlink3 } from "node:fs/promises";
import { join as join9 } from "node:path";
var DEFAULT_CLAIM_TTL_MS = 5 * 6e4;
async function replay(queueDir, options) {
  const paths = queuePaths(queueDir);
  const claimTtlMs = options.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const summary = { replayed: 0, retried: 0, deadLettered: 0, deferred: 0, remaining: 0, reclaimed: 0, busy: false, problems: [] };
  const lock = await tryLock(paths.replayLock, { now: options.now, staleMs: claimTtlMs });
  if (lock.ok) {
    try {
      await runPass(paths, { ...options, claimTtlMs }, summary, lock.handle);
    } catch (error) {
      summary.problems.push(errorMessage2(error));
    } finally {
      await lock.handle.release();
    }
  } else if (lock.reason === "busy") {
    summary.busy = true;
  } else {
    summary.problems.push(`replay lock: ${lock.message}`);
  }
  try {
    summary.remaining = (await listDir(paths.pendingDir)).filter((name) => parseEntryName(name) !== void 0).length;
  } catch (error) {
    summary.problems.push(errorMessage2(error));
  }
  return summary;
}
async function runPass(paths, options, summary, lock) {
  const started = options.now();
  const pass = { paths, options, summary, blocked: /* @__PURE__ */ new Set() };
  await returnAbandonedClaims(pass);
  await sweepTempFiles(paths.pendingDir, pass);
  await sweepTempFiles(paths.deadDir, pass);
  const names = (await listDir(paths.pendingDir)).filter((name) => parseEntryName(name)?.claimed === false).sort();
  let executed = 0;
  let halted = false;
  for (const name of names) {
    if (halted || executed >= options.limit || options.now() - started >= options.budgetMs) {
      summary.deferred++;
      continue;
    }
    const step = await replayEntry(pass, name.slice(0, -PENDING_SUFFIX.length));
    if (step !== "skipped") executed++;
    halted = step === "halt";
    await lock.refresh();
  }
}
async function returnAbandonedClaims(pass) {
  const { pendingDir } = pass.paths;
  for (const name of await listDir(pendingDir)) {
    const parsed = parseEntryName(name);
    if (!parsed?.claimed) continue;
    const claimedPath = join9(pendingDir, name);
    const claimedAt = await mtimeOf(claimedPath);
    if (claimedAt === void 0) continue;
    if (pass.options.now() - claimedAt <= pass.options.claimTtlMs) {
      const entry = toQueueEntry(await readJson(claimedPath));
      if (entry) pass.blocked.add(entry.sessionId);
      continue;
    }
    const pendingPath = join9(pendingDir, `${parsed.base}${PENDING_SUFFIX}`);
    if (await mtimeOf(pendingPath) !== void 0) await unlink3(claimedPath).catch(() => void 0);
    else await rename3(claimedPath, pendingPath);
    pass.summary.reclaimed++;
  }
}
async function replayEntry(pass, base) {
  const { paths, options, summary } = pass;
  const pendingPath = join9(paths.pendingDir, `${base}${PENDING_SUFFIX}`);
  const claimedPath = join9(paths.pendingDir, `${base}${CLAIMED_SUFFIX}`);
  try {
    await rename3(pendingPath, claimedPath);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return "skipped";
    throw error;
  }
  await setMtime(claimedPath, options.now());
  const claim = { pass, base, pendingPath, claimedPath };
  const raw = await readFile3(claimedPath, "utf8");
  const entry = toQueueEntry(parseQuietly(raw));
  if (!entry) return deadLetter(claim, { reason: "corrupt", raw }).then(() => "skipped");
  if (pass.blocked.has(entry.sessionId)) {
    await rename3(claimedPath, pendingPath);
    summary.deferred++;
    return "skipped";
  }
  if (options.now() - entry.createdAt > options.ttlMs) return deadLetter(claim, { reason: "expired", entry }).then(() => "skipped");
  if (entry.attempts >= options.maxAttempts) return deadLetter(claim, { reason: "max-attempts", entry }).then(() => "skipped");
  const outcome = await runExecute(options, entry);
  if (outcome.verdict === "done") {
    await unlink3(claimedPath);
    summary.replayed++;
  } else if (outcome.verdict === "fatal") {
    await deadLetter(claim, { reason: "fatal", entry, error: outcome.error });
  } else {
    pass.blocked.add(entry.sessionId);
    await keepForRetry(claim, entry, outcome.error);
  }
  return outcome.haltRun ? "halt" : "executed";
}
async function runExecute(options, entry) {
  let verdict;
  try {
    verdict = await options.execute(entry);
  } catch (error) {
    return { verdict: "retry", error: redactError(errorMessage2(error)), haltRun: false };
  }
  if (verdict === "done" || verdict === "retry" || verdict === "fatal") return { verdict, haltRun: false };
  if (typeof verdict === "object" && verdict !== null && (verdict.verdict === "retry" || verdict.verdict === "fatal")) {
    return { verdict: verdict.verdict, haltRun: verdict.haltRun === true, ...verdict.error ? { error: redactError(verdict.error) } : {} };
  }
  return { verdict: "retry", error: `execute returned ${JSON.stringify(verdict)}`, haltRun: false };
}
async function keepForRetry(claim, entry, error) {
  const updated = { ...entry, attempts: entry.attempts + 1, ...error ? { lastError: error } : {} };
  if (updated.attempts >= claim.pass.options.maxAttempts) {
    await deadLetter(claim, { reason: "max-attempts", entry: updated, ...error ? { error } : {} });
    return;
  }
  await writeJsonAtomic(claim.pendingPath, updated);
  await unlink3(claim.claimedPath);
  claim.pass.summary.retried++;
}
async function deadLetter(claim, letter) {
  const { paths, options, summary } = claim.pass;
  const deadAt = options.now();
  const record2 = { reason: letter.reason, deadAt, file: `${claim.base}${PENDING_SUFFIX}` };
  if (letter.error !== void 0) record2.error = letter.error;
  if (letter.entry !== void 0) record2.entry = letter.entry;
  if (letter.raw !== void 0) record2.raw = letter.raw;
  try {
    await writeJsonAtomic(join9(paths.deadDir, deadLetterName(deadAt, claim.base)), record2);
  } catch (error) {
    summary.problems.push(`dead letter for ${claim.base}: ${errorMessage2(error)}`);
    await rename3(claim.claimedPath, claim.pendingPath);
    return;
  }
  await unlink3(claim.claimedPath);
  summary.deadLettered++;
}
async function sweepTempFiles(dir, pass) {
  for (const name of await listDir(dir)) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const path = join9(dir, name);
    const modifiedAt = await mtimeOf(path);
    if (modifiedAt !== void 0 && pass.options.now() - modifiedAt > pass.options.claimTtlMs) {
      await unlink3(path).catch(() => void 0);
    }
  }
}
function parseQuietly(text2) {
  try {
    return JSON.parse(text2);
  } catch {
    return void 0;
  }
}

// src/store/queue.ts
var ENQUEUE_LOCK_STALE_MS = 3e4;
async function enqueue(queueDir, input, options) {
  const seq = input.seq ?? 0;
  if (!Number.isSafeInteger(input.createdAt) || input.createdAt < 0 || !Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) {
    return { ok: false, message: `invalid createdAt/seq: ${input.createdAt}/${seq}` };
  }
  let entry;
  try {
    const dedupKey = dedupKeyOf(input.type, input.sessionId, input.payload);
    entry = { type: input.type, sessionId: input.sessionId, payload: input.payload, createdAt: input.createdAt, seq, attempts: 0, dedupKey };
  } catch (error) {
    return { ok: false, message: `payload is not JSON: ${errorMessage2(error)}` };
  }
  const paths = queuePaths(queueDir);
  const write = () => writeUnlessQueued(paths.pendingDir, entry);
  try {
    const lockOptions = { now: options.now, timeoutMs: options.lockTimeoutMs, staleMs: ENQUEUE_LOCK_STALE_MS };
    const locked = await withLock(paths.enqueueLock, lockOptions, write);
    return locked.ok ? locked.value : await write();
  } catch (error) {
    return { ok: false, message: errorMessage2(error) };
  }
}
async function writeUnlessQueued(pendingDir, entry) {
  const keyPrefix = keyPrefixOf(entry.dedupKey);
  const existing = (await listDir(pendingDir)).find((name) => parseEntryName(name)?.keyPrefix === keyPrefix);
  if (existing !== void 0) return { ok: true, deduped: true, file: join10(pendingDir, existing) };
  const file = join10(pendingDir, `${entryBaseName(entry)}${PENDING_SUFFIX}`);
  await writeJsonAtomic(file, entry);
  return { ok: true, deduped: false, file };
}

// src/capture/queueing.ts
function queueDirOf(dataDir) {
  return storeLayout(dataDir).queueDir;
}
function batchFingerprint(ovSessionId2, payload) {
  return dedupKeyOf("addMessages", ovSessionId2, payload);
}
async function queueWrite(writer, type, payload) {
  const { env } = writer;
  const queued = await enqueue(
    queueDirOf(env.dataDir),
    { type, sessionId: writer.ovSessionId, payload, createdAt: env.now(), seq: writer.nextQueueSeq() },
    { now: env.now, lockTimeoutMs: env.settings.lockTimeoutMs }
  );
  if (!queued.ok) {
    env.log.warn("capture could not queue a write", { session: writer.ovSessionId, type, error: queued.message });
    return false;
  }
  const base = baseOf(queued.file);
  if (!writer.state.queued.includes(base)) writer.state.queued.push(base);
  return true;
}
async function deadLetterWrite(writer, type, payload, error) {
  const { env } = writer;
  const now = env.now();
  const entry = { type, sessionId: writer.ovSessionId, payload, createdAt: now, seq: 0, attempts: 1, dedupKey: dedupKeyOf(type, writer.ovSessionId, payload) };
  const base = entryBaseName(entry);
  const letter = { reason: "fatal", deadAt: now, file: `${base}${PENDING_SUFFIX}`, error: redactError(error), entry: { ...entry, lastError: redactError(error) } };
  try {
    await writeJsonAtomic(join11(queuePaths(queueDirOf(env.dataDir)).deadDir, deadLetterName(now, base)), letter);
    return true;
  } catch (failure2) {
    env.log.warn("capture could not write a dead letter", { session: writer.ovSessionId, error: String(failure2) });
    return false;
  }
}
async function hasQueuedWrites(writer) {
  const { pendingDir } = queuePaths(queueDirOf(writer.env.dataDir));
  const waiting = [];
  for (const base of writer.state.queued) {
    if (await exists(join11(pendingDir, base + PENDING_SUFFIX)) || await exists(join11(pendingDir, base + CLAIMED_SUFFIX))) waiting.push(base);
  }
  writer.state.queued = waiting;
  return waiting.length > 0;
}
function baseOf(file) {
  const name = basename2(file);
  return name.endsWith(PENDING_SUFFIX) ? name.slice(0, -PENDING_SUFFIX.length) : name;
}
async function exists(path) {
  try {
    await stat2(path);
    return true;
  } catch {
    return false;
  }
}

// src/capture/commit.ts
async function commitSession(writer, body) {
  if (await hasQueuedWrites(writer)) return queueCommit(writer, body);
  const result = await writer.env.client.commit(writer.ovSessionId, body);
  if (result.ok) {
    recordCommit(writer.state, writer.env.now());
    writer.count = void 0;
    return "committed";
  }
  if (result.status === 404) return "absent";
  writer.state.lastError = `commit: ${result.code} ${result.message}`;
  if (result.retryable) return queueCommit(writer, body);
  return await deadLetterWrite(writer, "commit", body, `${result.code}: ${result.message}`) ? "dead-lettered" : "lost";
}
async function queueCommit(writer, body) {
  return await queueWrite(writer, "commit", body) ? "queued" : "lost";
}

// src/capture/inflight.ts
async function fetchSessionCount(writer) {
  const got = await writer.env.client.getSession(writer.ovSessionId);
  if (!got.ok) return got.status === 404 ? { ok: true, status: 404, result: { count: { live: 0, total: 0 } } } : got;
  const count3 = { live: got.result.message_count ?? 0 };
  if (got.result.total_message_count !== void 0) count3.total = got.result.total_message_count;
  const snapshot = { count: count3 };
  if (got.result.pending_tokens !== void 0) snapshot.pendingTokens = got.result.pending_tokens;
  return { ok: true, status: got.status, result: snapshot };
}
function countMoved(before, now) {
  if (before.total !== void 0 && now.total !== void 0) return now.total > before.total;
  return now.live > before.live;
}
async function resolveInflight(writer) {
  const inflight = writer.state.inflight;
  if (inflight === void 0) return void 0;
  const now = await fetchSessionCount(writer);
  if (!now.ok) return { kind: "unknown", failure: now };
  writer.count = now.result.count;
  return { kind: countMoved(inflight.before, now.result.count) ? "applied" : "not-applied", snapshot: now.result };
}
async function countBeforeSend(writer) {
  if (writer.count !== void 0) return { ok: true, status: 200, result: writer.count };
  const now = await fetchSessionCount(writer);
  if (!now.ok) return now;
  writer.count = now.result.count;
  return { ok: true, status: now.status, result: now.result.count };
}

// src/capture/recover.ts
async function recoverEnqueueIntent(writer) {
  const intent = writer.state.enqueueIntent;
  if (intent === void 0) return;
  const base = await queuedBaseOf(writer, intent.fingerprint);
  if (base !== void 0) {
    acknowledge(writer.state, intent.recordIds, "queued", writer.env.now());
    if (!writer.state.queued.includes(base)) writer.state.queued.push(base);
    if (writer.state.inflight?.fingerprint === intent.fingerprint) writer.state.inflight.queued = true;
  }
  writer.state.enqueueIntent = void 0;
  writer.env.log.debug("enqueue intent recovered", { session: writer.ovSessionId, queued: base !== void 0 });
  await writer.save();
}
async function queuedBaseOf(writer, fingerprint) {
  const prefix = keyPrefixOf(fingerprint);
  const names = await listDir(queuePaths(queueDirOf(writer.env.dataDir)).pendingDir).catch(() => []);
  for (const name of names) {
    const parsed = parseEntryName(name);
    if (parsed?.keyPrefix === prefix) return parsed.base;
  }
  return void 0;
}

// src/capture/send.ts
async function deliverBatch(writer, messages, meta) {
  const serial = writer.state.serialOnly === true;
  if (serial && messages.length !== 1) return { kind: "route-missing" };
  const before = await countBeforeSend(writer);
  if (!before.ok) return { kind: "failed", failure: before, ambiguous: false };
  writer.state.inflight = { fingerprint: meta.fingerprint, recordIds: meta.recordIds, before: before.result, queued: meta.queued, startedAt: writer.env.now() };
  if (!await writer.save()) {
    writer.state.inflight = void 0;
    return { kind: "local-error" };
  }
  writer.count = void 0;
  writer.env.crashPoint?.("before-send");
  const client = writer.env.client;
  const sent = serial ? await client.addMessage(writer.ovSessionId, messages[0]) : await client.addMessages(writer.ovSessionId, messages);
  writer.env.crashPoint?.("after-send");
  if (sent.ok) {
    writer.state.inflight = void 0;
    writer.count = countAfter(before.result, sent.result.message_count, sent.result.added);
    return sent.result.pending_tokens === void 0 ? { kind: "applied" } : { kind: "applied", pendingTokens: sent.result.pending_tokens };
  }
  return settleFailure(writer, before.result, sent, serial);
}
async function settleFailure(writer, before, failure2, serial) {
  if (failure2.status >= 400 && failure2.status < 500) {
    writer.state.inflight = void 0;
    writer.count = before;
    if (!serial && (failure2.status === 404 || failure2.status === 405)) return { kind: "route-missing" };
    return { kind: "failed", failure: failure2, ambiguous: false };
  }
  const now = await fetchSessionCount(writer);
  if (!now.ok) return { kind: "failed", failure: failure2, ambiguous: true };
  writer.count = now.result.count;
  writer.state.inflight = void 0;
  if (countMoved(before, now.result.count)) {
    return now.result.pendingTokens === void 0 ? { kind: "applied" } : { kind: "applied", pendingTokens: now.result.pendingTokens };
  }
  return { kind: "failed", failure: failure2, ambiguous: false };
}
function countAfter(before, live, added) {
  if (live === void 0) return void 0;
  const count3 = { live };
  if (before.total !== void 0 && added !== void 0) count3.total = before.total + added;
  return count3;
}

// src/capture/settle.ts
async function settleInflight(writer) {
  const inflight = writer.state.inflight;
  if (inflight === void 0) return "clear";
  if (inflight.queued && await entryWaits(writer, inflight.fingerprint)) return "queued";
  const resolution = await resolveInflight(writer);
  if (resolution === void 0) return "clear";
  if (resolution.kind === "unknown") {
    writer.env.log.debug("inflight batch unresolved", { session: writer.ovSessionId, error: resolution.failure.message });
    return "blocked";
  }
  if (resolution.kind === "applied" && !inflight.queued) acknowledge(writer.state, inflight.recordIds, "sent", writer.env.now());
  writer.state.inflight = void 0;
  writer.env.log.debug("inflight batch resolved", { session: writer.ovSessionId, outcome: resolution.kind });
  return await writer.save() ? "clear" : "blocked";
}
async function entryWaits(writer, fingerprint) {
  if (!await hasQueuedWrites(writer)) return false;
  const prefix = keyPrefixOf(fingerprint);
  return writer.state.queued.some((base) => parseEntryName(`${base}.json`)?.keyPrefix === prefix);
}

// src/session/locks.ts
function captureLockPath(dataDir, ovSessionId2) {
  return sessionLockFile(storeLayout(dataDir), ovSessionId2, "capture");
}

// src/capture/writer.ts
var LOCK_STALE_MS = 5 * 6e4;
async function withSessionWriter(env, identity, waitMs, job) {
  const lockPath = captureLockPath(env.dataDir, identity.ovSessionId);
  const lockOptions = { now: env.now, staleMs: LOCK_STALE_MS };
  const locked = waitMs > 0 ? await acquire(lockPath, { ...lockOptions, timeoutMs: waitMs }) : await tryLock(lockPath, lockOptions);
  if (!locked.ok) {
    if (locked.reason === "error") return { ok: false, reason: "error", message: locked.message };
    return { ok: false, reason: "busy" };
  }
  try {
    const writer = await openWriter(env, identity, locked.handle);
    return { ok: true, value: await job(writer) };
  } finally {
    await locked.handle.release();
  }
}
async function openWriter(env, identity, handle) {
  const stored = await loadCaptureState(env.dataDir, identity.ovSessionId);
  const state = stored ?? emptyCaptureState(identity);
  if (identity.hostSessionId !== "") state.hostSessionId = identity.hostSessionId;
  if (identity.workspace !== "") state.workspace = identity.workspace;
  if (identity.agentId !== void 0) state.agentId = identity.agentId;
  let queueSeq = 0;
  const writer = {
    env,
    ovSessionId: identity.ovSessionId,
    state,
    save: async () => {
      const saved = await saveCaptureState(env.dataDir, writer.state);
      if (!saved.ok) env.log.warn("capture state not saved", { session: identity.ovSessionId, error: saved.message });
      return saved.ok;
    },
    heartbeat: async () => {
      await handle.refresh();
    },
    nextQueueSeq: () => queueSeq++
  };
  return writer;
}

// src/capture/replay.ts
function replayPendingWrites(env, run) {
  const { settings } = env;
  return replay(queueDirOf(env.dataDir), {
    execute: (entry) => executeEntry(env, run, entry),
    now: env.now,
    budgetMs: run.budgetMs,
    limit: run.limit,
    maxAttempts: Math.max(1, settings.pendingMaxRetries),
    ttlMs: settings.pendingTtlDays * 24 * 60 * 6e4
  });
}
async function executeEntry(env, run, entry) {
  const held = run.held?.get(entry.sessionId);
  if (held !== void 0) return executeAs(held, entry);
  const identity = { ovSessionId: entry.sessionId, hostSessionId: "", workspace: "" };
  const outcome = await withSessionWriter(env, identity, run.lockWaitMs ?? 2e3, (writer) => executeAs(writer, entry));
  if (outcome.ok) return outcome.value;
  return { verdict: "retry", error: outcome.reason === "busy" ? "session writer busy" : outcome.message ?? "lock error" };
}
async function executeAs(writer, entry) {
  await recoverEnqueueIntent(writer);
  const verdict = entry.type === "commit" ? await replayCommit(writer, entry) : await replayMessages(writer, entry);
  await writer.save();
  return verdict;
}
var HALT = (error) => ({ verdict: "retry", error, haltRun: true });
async function replayMessages(writer, entry) {
  const messages = messagesOf(entry.payload);
  if (messages === void 0) return { verdict: "fatal", error: "queued addMessages payload has no messages array" };
  if (writer.state.inflight?.fingerprint === entry.dedupKey) {
    const resolution = await resolveInflight(writer);
    if (resolution?.kind === "unknown") return HALT(resolution.failure.message);
    writer.state.inflight = void 0;
    if (resolution?.kind === "applied") {
      writer.state.counts.sent += messages.length;
      return "done";
    }
  } else {
    const blocked = await earlierBatchBlocks(writer);
    if (blocked !== void 0) return blocked;
  }
  const delivery = await deliverBatch(writer, messages, { fingerprint: entry.dedupKey, recordIds: [], queued: true });
  switch (delivery.kind) {
    case "applied":
      writer.state.counts.sent += messages.length;
      return "done";
    case "route-missing":
      writer.state.serialOnly = true;
      return messages.length === 1 ? "retry" : { verdict: "fatal", error: "the server has no batch route; resend these messages one by one" };
    case "local-error":
      return HALT("capture state not writable");
    case "failed":
      if (delivery.ambiguous || delivery.failure.retryable) return HALT(`${delivery.failure.code}: ${delivery.failure.message}`);
      return { verdict: "fatal", error: `${delivery.failure.code}: ${delivery.failure.message}` };
  }
}
async function replayCommit(writer, entry) {
  const blocked = await earlierBatchBlocks(writer);
  if (blocked !== void 0) return blocked;
  const body = isRecord(entry.payload) ? entry.payload : {};
  const result = await writer.env.client.commit(entry.sessionId, body);
  if (result.ok) {
    recordCommit(writer.state, writer.env.now());
    writer.count = void 0;
    return "done";
  }
  if (result.status === 404) return "done";
  const error = `${result.code}: ${result.message}`;
  return result.retryable ? HALT(error) : { verdict: "fatal", error };
}
async function earlierBatchBlocks(writer) {
  const settlement = await settleInflight(writer);
  if (settlement === "clear") return void 0;
  const error = "an earlier batch of the session is unresolved";
  return settlement === "blocked" ? HALT(error) : { verdict: "retry", error };
}
function messagesOf(payload) {
  if (!isRecord(payload) || !Array.isArray(payload.messages) || payload.messages.length === 0) return void 0;
  return payload.messages.every((message) => isRecord(message) && Array.isArray(message.parts)) ? payload.messages : void 0;
}

// src/capture/pass.ts
var PASS_REPLAY_BUDGET_MS = 3e4;
async function capturePass(writer, job) {
  const result = { status: "complete", sent: 0, queued: 0, deadLettered: 0 };
  await recoverEnqueueIntent(writer);
  const backlog = await drainOwnBacklog(writer);
  const settlement = await settleInflight(writer);
  if (settlement === "blocked") return { ...result, status: "blocked" };
  let queueMode = backlog || settlement === "queued";
  const { state, env } = writer;
  const read = await readTranscriptTail(job.transcriptPath, cursorFor(state.cursor, job.transcriptPath));
  if (read.error !== void 0) {
    env.log.debug("transcript not readable", { session: writer.ovSessionId, error: read.error });
    return result;
  }
  const rescanned = read.rescanned || state.cursor !== void 0 && state.cursor.path !== job.transcriptPath;
  state.transcriptPath = job.transcriptPath;
  const decoded = decodeTranscriptRecords(read.records, { ...state.format ? { format: state.format } : {}, includeSidechain: job.subagent });
  if (decoded.format !== void 0) state.format = decoded.format;
  const items = planItems(decoded.messages, {
    captureAssistantTurns: env.settings.captureAssistantTurns,
    privacy: { maxToolOutputChars: env.settings.captureToolMaxChars },
    recentIds: new Set(state.recentIds),
    ...rescanned && state.lastAckedRecordId !== void 0 ? { skipThrough: state.lastAckedRecordId } : {}
  });
  state.counts.skipped += items.filter((item) => item.skip === "empty" || item.skip === "assistant-off").length;
  const recordIds = read.spans.map((span) => span.id);
  const moveCursor = (ackedEnd) => {
    state.cursor = cursorAfterRecords(read, resumeRecordIndex(items, ackedEnd, recordIds, decoded.consumed));
  };
  let pendingTokens;
  for (let from = 0; ; ) {
    const batch = nextBatch(items, from, state.serialOnly ? 1 : MAX_BATCH);
    if (batch === void 0) {
      moveCursor(items.length);
      break;
    }
    if (env.now() >= env.deadlineAt) {
      result.status = "partial";
      break;
    }
    const step = queueMode ? await queueBatch(writer, batch, batchFingerprint(writer.ovSessionId, { messages: batch.messages })) : await sendBatch(writer, batch);
    if (step.kind === "retry-serial") continue;
    if (step.kind === "stop") {
      result.status = "partial";
      break;
    }
    if (step.kind === "queued") queueMode = true;
    if (step.pendingTokens !== void 0) pendingTokens = step.pendingTokens;
    result[step.kind === "sent" ? "sent" : step.kind === "queued" ? "queued" : "deadLettered"] += batch.messages.length;
    from = batch.end;
    moveCursor(from);
    await writer.save();
    await writer.heartbeat();
  }
  if (result.status === "complete") result.commit = await commitIfDue(writer, job, pendingTokens);
  await writer.save();
  return result;
}
async function drainOwnBacklog(writer) {
  if (!await hasQueuedWrites(writer)) return false;
  const probe = await fetchSessionCount(writer);
  if (!probe.ok) return true;
  writer.count = probe.result.count;
  const { env } = writer;
  const budgetMs = Math.max(0, Math.min(PASS_REPLAY_BUDGET_MS, env.deadlineAt - env.now()));
  const summary = await replayPendingWrites(env, {
    budgetMs,
    limit: Math.max(env.settings.pendingReplayLimit, MAX_BATCH),
    held: /* @__PURE__ */ new Map([[writer.ovSessionId, writer]])
  });
  env.log.debug("capture replayed the queue", { session: writer.ovSessionId, replayed: summary.replayed, remaining: summary.remaining });
  return await hasQueuedWrites(writer) || writer.state.inflight?.queued === true;
}
async function sendBatch(writer, batch) {
  const payload = { messages: batch.messages };
  const fingerprint = batchFingerprint(writer.ovSessionId, payload);
  const now = writer.env.now;
  const delivery = await deliverBatch(writer, batch.messages, { fingerprint, recordIds: batch.recordIds, queued: false });
  switch (delivery.kind) {
    case "applied":
      acknowledge(writer.state, batch.recordIds, "sent", now());
      return delivery.pendingTokens === void 0 ? { kind: "sent" } : { kind: "sent", pendingTokens: delivery.pendingTokens };
    case "route-missing":
      writer.state.serialOnly = true;
      return { kind: "retry-serial" };
    case "local-error":
      return { kind: "stop" };
    case "failed": {
      const reason = `${delivery.failure.code}: ${delivery.failure.message}`;
      writer.state.lastError = reason;
      if (delivery.ambiguous || delivery.failure.retryable) return queueBatch(writer, batch, fingerprint);
      if (!await deadLetterWrite(writer, "addMessages", payload, reason)) return { kind: "stop" };
      acknowledge(writer.state, batch.recordIds, "deadLettered", now());
      return { kind: "deadLettered" };
    }
  }
}
async function queueBatch(writer, batch, fingerprint) {
  const { state } = writer;
  state.enqueueIntent = { fingerprint, recordIds: batch.recordIds };
  if (!await writer.save() || !await queueWrite(writer, "addMessages", { messages: batch.messages })) {
    state.enqueueIntent = void 0;
    return { kind: "stop" };
  }
  writer.env.crashPoint?.("after-enqueue");
  if (state.inflight?.fingerprint === fingerprint) state.inflight.queued = true;
  state.enqueueIntent = void 0;
  acknowledge(state, batch.recordIds, "queued", writer.env.now());
  return { kind: "queued" };
}
async function commitIfDue(writer, job, pendingTokens) {
  const { settings } = writer.env;
  let body;
  if (job.commit && writer.state.capturedSinceCommit > 0) body = {};
  else if (pendingTokens !== void 0 && pendingTokens >= settings.commitTokenThreshold) body = { keep_recent_count: settings.commitKeepRecentCount };
  if (body === void 0) return void 0;
  const outcome = await commitSession(writer, body);
  writer.env.log.debug("capture commit", { session: writer.ovSessionId, outcome, full: job.commit });
  return outcome;
}
function cursorFor(cursor, path) {
  return cursor?.path === path ? cursor : void 0;
}

// src/capture/requests.ts
import { readdir as readdir4, readFile as readFile4, unlink as unlink4 } from "node:fs/promises";
import { join as join12 } from "node:path";
async function postRequest(dataDir, request) {
  const name = `${String(Math.max(0, Math.trunc(request.at))).padStart(15, "0")}-${uniqueToken()}.json`;
  try {
    await writeJsonAtomic(join12(requestDir(dataDir, request.ovSessionId), name), request, { fsync: false });
    return true;
  } catch {
    return false;
  }
}
async function readInbox(dataDir, ovSessionId2) {
  const dir = requestDir(dataDir, ovSessionId2);
  let names;
  try {
    names = (await readdir4(dir)).filter((name) => name.endsWith(".json")).sort();
  } catch {
    return { names: [], requests: [] };
  }
  const inbox = { names: [], requests: [] };
  for (const name of names) {
    const request = await readRequest(join12(dir, name));
    if (request === void 0) await unlink4(join12(dir, name)).catch(() => void 0);
    else {
      inbox.names.push(name);
      inbox.requests.push(request);
    }
  }
  return inbox;
}
async function removeRequests(dataDir, ovSessionId2, names) {
  const dir = requestDir(dataDir, ovSessionId2);
  await Promise.all(names.map((name) => unlink4(join12(dir, name)).catch(() => void 0)));
}
function jobFor(requests) {
  const newest = requests[requests.length - 1];
  if (newest === void 0) return void 0;
  const identity = { ovSessionId: newest.ovSessionId, hostSessionId: newest.hostSessionId, workspace: newest.workspace };
  return {
    identity: newest.agentId === void 0 ? identity : { ...identity, agentId: newest.agentId },
    transcriptPath: newest.transcriptPath,
    subagent: requests.some((request) => request.subagent),
    commit: requests.some((request) => request.commit)
  };
}
async function readRequest(path) {
  let value;
  try {
    value = JSON.parse(await readFile4(path, "utf8"));
  } catch {
    return void 0;
  }
  if (!isRecord(value)) return void 0;
  const { event, ovSessionId: ovSessionId2, hostSessionId, workspace, agentId, transcriptPath, subagent, commit, at } = value;
  if (typeof ovSessionId2 !== "string" || ovSessionId2 === "" || typeof transcriptPath !== "string" || transcriptPath === "") return void 0;
  const request = {
    event: typeof event === "string" ? event : "",
    ovSessionId: ovSessionId2,
    hostSessionId: typeof hostSessionId === "string" ? hostSessionId : "",
    workspace: typeof workspace === "string" ? workspace : "",
    transcriptPath,
    subagent: subagent === true,
    commit: commit === true,
    at: typeof at === "number" ? at : 0
  };
  if (typeof agentId === "string") request.agentId = agentId;
  return request;
}

// src/capture/drain.ts
var MAX_PASSES = 50;
async function drainRequests(env, ovSessionId2, waitMs) {
  for (let wait = waitMs; ; wait = 0) {
    const inbox = await readInbox(env.dataDir, ovSessionId2);
    const job = jobFor(inbox.requests);
    if (job === void 0) return "drained";
    if (env.now() >= env.deadlineAt) return "incomplete";
    const outcome = await withSessionWriter(env, job.identity, wait, (writer) => drainLocked(writer));
    if (!outcome.ok) {
      if (outcome.reason === "error") env.log.warn("capture lock failed", { session: ovSessionId2, error: outcome.message });
      return outcome.reason;
    }
    if (outcome.value !== "drained") return outcome.value;
  }
}
async function drainLocked(writer) {
  const { env } = writer;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const inbox = await readInbox(env.dataDir, writer.ovSessionId);
    const job = jobFor(inbox.requests);
    if (job === void 0) return "drained";
    const result = await capturePass(writer, job);
    env.log.debug("capture pass", { session: writer.ovSessionId, requests: inbox.names.length, ...result });
    if (result.status !== "complete") return "incomplete";
    await removeRequests(env.dataDir, writer.ovSessionId, inbox.names);
  }
  return "incomplete";
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
  const parsed = parseJson2(response.body);
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
function parseJson2(text2) {
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
function errorMessage3(error) {
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
    return failure(0, "BAD_REQUEST", `request body is not serialisable: ${errorMessage3(error)}`);
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
    const reason = `unexpected ${spec.path} response: ${errorMessage3(error)}`;
    return redact(failure(interpreted.status, "BAD_RESPONSE", reason), options.apiKey);
  }
}
function transportFailure(error, cutByDeadline, spec) {
  const where = `${spec.method} ${spec.path}`;
  switch (transportFailureKind(error)) {
    case "timeout":
      return cutByDeadline ? failure(0, "DEADLINE", `stage deadline reached during ${where}`) : failure(0, "TIMEOUT", `${where} timed out: ${errorMessage3(error)}`);
    case "too_large":
      return failure(0, "BAD_RESPONSE", `${where}: ${errorMessage3(error)}`);
    default:
      return failure(0, "NETWORK", `${where} failed: ${errorMessage3(error)}`);
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

// src/capture/commitStale.ts
var COMMIT_STALE_DEADLINE_MS = 6e4;
async function commitStale(dataDir, workspace, exceptSessionId, deps) {
  const summary = { considered: 0, drained: 0, busy: 0, incomplete: 0 };
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  if (!config.settings.enabled || !config.settings.autoCapture) return summary;
  const env = { ...captureEnvFor(deps, config, COMMIT_STALE_DEADLINE_MS), dataDir };
  const spared = sparedIds(exceptSessionId);
  for (const state of await listCaptureStates(dataDir)) {
    if (state.workspace !== workspace || isSpared(state, spared) || state.transcriptPath === void 0) continue;
    if (state.capturedSinceCommit === 0 && !await transcriptGrew(state)) continue;
    summary.considered++;
    const posted = await postRequest(dataDir, {
      event: "commit-stale",
      ovSessionId: state.ovSessionId,
      hostSessionId: state.hostSessionId,
      workspace: state.workspace,
      ...state.agentId !== void 0 ? { agentId: state.agentId } : {},
      transcriptPath: state.transcriptPath,
      subagent: state.agentId !== void 0,
      commit: true,
      at: deps.now()
    });
    count2(summary, posted ? await drainRequests(env, state.ovSessionId, 0) : "error");
  }
  deps.log.debug("commit-stale done", { workspace, ...summary });
  return summary;
}
function sparedIds(exceptSessionId) {
  const except = exceptSessionId.trim();
  if (except === "") return [];
  return except.startsWith(OV_SESSION_PREFIX) ? [except] : [except, ovSessionId(except)];
}
function isSpared(state, spared) {
  return spared.some((id) => state.hostSessionId === id || state.ovSessionId === id || state.ovSessionId.startsWith(`${id}${SUBAGENT_SEPARATOR}`));
}
async function transcriptGrew(state) {
  if (state.transcriptPath === void 0) return false;
  try {
    return (await stat3(state.transcriptPath)).size > (state.cursor?.offset ?? 0);
  } catch {
    return false;
  }
}
function count2(summary, status) {
  if (status === "drained") summary.drained++;
  else if (status === "busy") summary.busy++;
  else summary.incomplete++;
}

// src/capture/target.ts
var COMMITTING_EVENTS = /* @__PURE__ */ new Set(["SubagentStop", "PreCompact", "SessionEnd"]);
function requestForEvent(input, env, cwd, now) {
  const hostSessionId = stringOf(input.session_id);
  if (hostSessionId === "") return void 0;
  const workspace = resolveWorkspace(input, env, cwd);
  const event = input.hook_event_name;
  const common = { event, hostSessionId, workspace, commit: COMMITTING_EVENTS.has(event), at: now };
  if (event === "SubagentStop") {
    const agentId = stringOf(input.agent_id);
    const transcriptPath2 = stringOf(input.agent_transcript_path) || stringOf(input.transcript_path);
    const id2 = ovSubagentSessionId(hostSessionId, agentId);
    if (id2 === "" || transcriptPath2 === "") return void 0;
    return { ...common, ovSessionId: id2, agentId, transcriptPath: transcriptPath2, subagent: true };
  }
  const transcriptPath = stringOf(input.transcript_path);
  const id = ovSessionId(hostSessionId);
  if (id === "" || transcriptPath === "") return void 0;
  return { ...common, ovSessionId: id, transcriptPath, subagent: false };
}
function stringOf(value) {
  return typeof value === "string" ? value.trim() : "";
}

// src/capture/worker.ts
var WORKER_DEADLINE_MS = 6e4;
async function runWorker(argv, stdinText, deps) {
  const kind = argv[0] ?? "";
  const started = deps.now();
  try {
    const code = await runKind(kind, stdinText, deps);
    deps.log.debug("worker done", { kind, code, ms: deps.now() - started });
    return code;
  } catch (error) {
    deps.log.warn("worker failed", { kind, error: error instanceof Error ? error.message : String(error) });
    return 1;
  }
}
async function runKind(kind, stdinText, deps) {
  switch (kind) {
    case "capture":
      return runCaptureJob(stdinText, deps);
    case "commit-stale":
      return runCommitStale(stdinText, deps);
    case "replay":
      return runReplay(deps);
    default:
      deps.log.warn("unknown worker kind", { kind });
      return 2;
  }
}
async function drainInProcess(ovSessionId2, deps, config, deadlineMs, lockWaitMs) {
  return drainRequests(captureEnvFor(deps, config, deadlineMs), ovSessionId2, lockWaitMs);
}
async function runCaptureJob(stdinText, deps) {
  const input = parseHookInput(stdinText);
  const request = input === null ? void 0 : requestForEvent(input, deps.env, deps.cwd, deps.now());
  if (request === void 0) return 2;
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  const env = captureEnvFor(deps, config, WORKER_DEADLINE_MS, crashPointFrom(deps));
  const status = await drainRequests(env, request.ovSessionId, 0);
  return status === "error" ? 1 : 0;
}
async function runCommitStale(stdinText, deps) {
  const job = commitStaleJob(stdinText, deps);
  if (job === void 0) return 2;
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  const dataDir = captureEnvFor(deps, config, 0).dataDir;
  await commitStale(dataDir, job.workspace, job.exceptSessionId, deps);
  return 0;
}
async function runReplay(deps) {
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  if (!config.settings.enabled) return 0;
  const env = captureEnvFor(deps, config, WORKER_DEADLINE_MS);
  const summary = await replayPendingWrites(env, { budgetMs: WORKER_DEADLINE_MS / 2, limit: Math.max(config.settings.pendingReplayLimit, 100) });
  deps.log.debug("worker replay", { replayed: summary.replayed, remaining: summary.remaining, busy: summary.busy });
  return 0;
}
function commitStaleJob(stdinText, deps) {
  let value;
  try {
    value = JSON.parse(stdinText);
  } catch {
    return void 0;
  }
  if (!isRecord(value)) return void 0;
  if (typeof value.workspace === "string" && value.workspace !== "") {
    return { workspace: value.workspace, exceptSessionId: typeof value.exceptSessionId === "string" ? value.exceptSessionId : "" };
  }
  const input = parseHookInput(stdinText);
  if (input === null) return void 0;
  return { workspace: resolveWorkspace(input, deps.env, deps.cwd), exceptSessionId: typeof input.session_id === "string" ? input.session_id : "" };
}
function crashPointFrom(deps) {
  const target = deps.env.OPENVIKING_TEST_CRASH_AT;
  if (target !== "before-send" && target !== "after-send" && target !== "after-enqueue") return void 0;
  return (point) => {
    if (point === target) deps.killNow?.();
  };
}
export {
  WORKER_DEADLINE_MS,
  drainInProcess,
  runWorker
};
