import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  RpcErrorCode,
  UpstreamError,
  createLineSplitter,
  describeError,
  errorLine,
  failureToRpcError,
  isUpstreamError,
  notificationLine,
  parseMessage,
  resultLine
} from "./chunks/chunk-UVOLDMVK.mjs";

// src/mcp/main.ts
import { homedir } from "node:os";

// src/config/configFile.ts
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

// src/openviking/narrow.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/config/configFile.ts
var MAX_CONFIG_BYTES = 1024 * 1024;
var FORBIDDEN_KEYS = /* @__PURE__ */ new Set(["__proto__", "constructor", "prototype"]);
function readSmallTextFile(path) {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === void 0) return void 0;
  if (size > MAX_CONFIG_BYTES) throw new Error(`file is ${size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit`);
  return readFileSync(path, "utf8");
}
function loadConfigFile(path, shownAs, readFile) {
  let text2;
  try {
    text2 = readFile(path);
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
function loadCredentialFiles({ env, homeDir, readFile }) {
  const cliOverride = text(env["OPENVIKING_CLI_CONFIG_FILE"]);
  const ovOverride = text(env["OPENVIKING_CONFIG_FILE"]);
  const load = (override, fallbackName) => {
    const path = expandHome(override ?? join2("~", ".openviking", fallbackName), homeDir);
    return loadConfigFile(path, displayPath(path, homeDir), readFile);
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
function resolveConfig({ env, homeDir, readFile = readSmallTextFile }) {
  const { credentials, warnings, cliFile } = resolveCredentials({ env, homeDir, readFile });
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

// src/mcp/proxy.ts
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
var KEY_PREFIX_MAX_CHARS = 48;
var KEY_HASH_HEX_CHARS = 16;
function safeFileKey(id) {
  const prefix = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, KEY_PREFIX_MAX_CHARS) || "id";
  const hash = hash64Hex(id).slice(0, KEY_HASH_HEX_CHARS);
  return `${prefix}-${hash}`;
}

// src/mcp/configWatch.ts
import { statSync as statSync2 } from "node:fs";
import { join as join4 } from "node:path";
function standardConfigPaths(env, homeDir) {
  const pick = (name, fallback) => expandHome(env[name]?.trim() || join4("~", ".openviking", fallback), homeDir);
  return [pick("OPENVIKING_CLI_CONFIG_FILE", "ovcli.conf"), pick("OPENVIKING_CONFIG_FILE", "ov.conf")];
}
function fingerprintFiles(paths) {
  return paths.map((path) => {
    try {
      const stats = statSync2(path, { throwIfNoEntry: false });
      return stats ? `${path}:${stats.mtimeMs}:${stats.size}` : `${path}:-`;
    } catch {
      return `${path}:-`;
    }
  }).join("|");
}
function createConfigWatch(options) {
  const standard = standardConfigPaths(options.env, options.homeDir);
  const watchedPaths = (config2) => [.../* @__PURE__ */ new Set([...standard, ...config2.credentials.files])].sort();
  let config = options.load();
  let paths = watchedPaths(config);
  let fingerprint = fingerprintFiles(paths);
  for (const warning of config.warnings) options.warn(warning);
  return {
    current: () => config,
    refresh() {
      const now = fingerprintFiles(paths);
      if (now === fingerprint) return false;
      fingerprint = now;
      try {
        config = options.load();
      } catch (error) {
        options.warn(`config reload failed, keeping the previous configuration: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
      for (const warning of config.warnings) options.warn(warning);
      const nextPaths = watchedPaths(config);
      if (nextPaths.join("|") !== paths.join("|")) {
        paths = nextPaths;
        fingerprint = fingerprintFiles(paths);
      }
      return true;
    }
  };
}

// src/mcp/discovery.ts
var LISTING_BUDGET_MS = 3e3;
var LISTING_FIELDS = Object.freeze({
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts"
});
function listingField(method, params) {
  if (params?.cursor !== void 0) return void 0;
  return LISTING_FIELDS[method];
}
function fallbackListing(field, items = []) {
  return { [field]: [...items] };
}
function createDiscovery(options) {
  const { log, snapshots } = options;
  let served;
  let relisting = false;
  const recordLive = (url, tools) => {
    void snapshots.load(url).then((snapshot) => {
      if (JSON.stringify(snapshot?.tools) !== JSON.stringify(tools)) void snapshots.update(url, { tools });
    });
    const json = JSON.stringify(tools);
    const changed = served !== void 0 && served.json !== json;
    served = { json, fallback: false };
    return changed;
  };
  const budget = () => Math.min(LISTING_BUDGET_MS, options.timeoutMs());
  const relist = async () => {
    if (relisting) return;
    relisting = true;
    try {
      const url = options.mcpUrl();
      const result = await options.request("tools/list", void 0, { timeoutMs: budget() });
      if (recordLive(url, Array.isArray(result.tools) ? result.tools : [])) {
        log.debug("tool list changed after reconnect; notifying the host");
        options.notify({ method: "notifications/tools/list_changed" });
      }
    } catch (error) {
      log.debug("re-list after reconnect failed", { error: describeError(error) });
    } finally {
      relisting = false;
    }
  };
  return {
    async answer(request, field, signal) {
      const url = options.mcpUrl();
      const isTools = request.method === "tools/list";
      try {
        const result = await options.request(request.method, request.params, { signal, timeoutMs: budget() });
        if (isTools && Array.isArray(result.tools)) recordLive(url, result.tools);
        return result;
      } catch (error) {
        if (signal.aborted) throw error;
        const remembered = isTools ? (await snapshots.load(url))?.tools ?? [] : [];
        const unsupported = isUpstreamError(error) && error.failure.kind === "rpc";
        (unsupported ? log.debug : log.warn)(`${request.method} failed upstream; serving ${remembered.length ? "the remembered list" : "an empty list"}`, {
          error: describeError(error)
        });
        if (isTools) served = { json: JSON.stringify(remembered), fallback: true };
        return fallbackListing(field, remembered);
      }
    },
    onReconnected() {
      if (served?.fallback) void relist();
    }
  };
}

// src/mcp/initialize.ts
var SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
var DEFAULT_UPSTREAM_CAPABILITIES = Object.freeze({
  tools: {},
  resources: {},
  prompts: {}
});
function negotiateProtocolVersion(requested) {
  const supported = SUPPORTED_PROTOCOL_VERSIONS;
  return typeof requested === "string" && supported.includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0];
}
function advertisedCapabilities(upstream) {
  const base = upstream ?? DEFAULT_UPSTREAM_CAPABILITIES;
  const tools = base.tools;
  const toolCapability = typeof tools === "object" && tools !== null ? tools : {};
  return { ...base, tools: { ...toolCapability, listChanged: true } };
}
function buildInitializeResult(params, profile, serverInfo) {
  const result = {
    protocolVersion: negotiateProtocolVersion(params?.protocolVersion),
    capabilities: advertisedCapabilities(profile?.capabilities),
    serverInfo
  };
  if (profile?.instructions) result.instructions = profile.instructions;
  return result;
}

// src/mcp/log.ts
var REDACTED = "[redacted]";
function redact(text2, secrets) {
  let clean = text2;
  for (const secret of secrets) if (secret && secret.length >= 4) clean = clean.split(secret).join(REDACTED);
  return clean;
}
function createStderrLog(options) {
  const emit = (level, message, fields) => {
    let line;
    try {
      line = JSON.stringify({ ts: new Date(options.now()).toISOString(), level, source: "openviking-mcp-proxy", message, ...fields });
    } catch {
      line = JSON.stringify({ ts: new Date(options.now()).toISOString(), level, source: "openviking-mcp-proxy", message });
    }
    options.write(`${redact(line, options.secrets())}
`);
  };
  return {
    debug: (message, fields) => {
      if (options.debugEnabled()) emit("debug", message, fields);
    },
    warn: (message, fields) => emit("warn", message, fields)
  };
}
var SILENT_LOG = Object.freeze({ debug: () => void 0, warn: () => void 0 });

// src/mcp/snapshot.ts
import { join as join6 } from "node:path";

// src/store/atomic.ts
import { mkdirSync, readFileSync as readFileSync2, renameSync, writeFileSync } from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join as join5 } from "node:path";

// src/store/fsUtil.ts
function errorCode(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const code = error.code;
  return typeof code === "string" ? code : void 0;
}
function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
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
  return join5(dirname(path), `${basename(path)}.${unique}${TEMP_SUFFIX}`);
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
    text2 = readFileSync2(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { status: "missing" };
    return { status: "unreadable", reason: errorMessage(error) };
  }
  try {
    return { status: "ok", value: JSON.parse(text2) };
  } catch (error) {
    return { status: "corrupt", reason: `invalid JSON (${text2.length} chars): ${errorMessage(error)}` };
  }
}
async function readJson(path) {
  const result = await readJsonDetailed(path);
  return result.status === "ok" ? result.value : void 0;
}

// src/mcp/snapshot.ts
var SNAPSHOT_VERSION = 1;
function snapshotPath(cacheDir, mcpUrl) {
  return join6(cacheDir, `mcp-upstream-${safeFileKey(mcpUrl)}.json`);
}
function isRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function narrowSnapshot(value, mcpUrl) {
  if (!isRecord2(value) || value.version !== SNAPSHOT_VERSION || value.mcpUrl !== mcpUrl) return void 0;
  const snapshot = {
    version: SNAPSHOT_VERSION,
    mcpUrl,
    savedAt: typeof value.savedAt === "number" ? value.savedAt : 0
  };
  const profile = value.profile;
  if (isRecord2(profile) && isRecord2(profile.capabilities)) {
    snapshot.profile = { capabilities: profile.capabilities };
    if (typeof profile.instructions === "string") snapshot.profile.instructions = profile.instructions;
  }
  if (Array.isArray(value.tools)) snapshot.tools = value.tools;
  return snapshot;
}
function createSnapshotStore(options) {
  const byUrl = /* @__PURE__ */ new Map();
  let writes = Promise.resolve();
  const load = (mcpUrl) => {
    let loaded = byUrl.get(mcpUrl);
    if (!loaded) {
      const { cacheDir } = options;
      loaded = cacheDir === void 0 ? Promise.resolve(void 0) : readJson(snapshotPath(cacheDir, mcpUrl)).then((value) => narrowSnapshot(value, mcpUrl));
      byUrl.set(mcpUrl, loaded);
    }
    return loaded;
  };
  const update = async (mcpUrl, change) => {
    const previous = await load(mcpUrl);
    const next = { ...previous, ...change, version: SNAPSHOT_VERSION, mcpUrl, savedAt: options.now() };
    byUrl.set(mcpUrl, Promise.resolve(next));
    const { cacheDir } = options;
    if (cacheDir === void 0) return;
    writes = writes.then(
      () => writeJsonAtomic(snapshotPath(cacheDir, mcpUrl), next, { fsync: false }).catch(
        (error) => options.warn(`could not save the upstream snapshot: ${error instanceof Error ? error.message : String(error)}`)
      )
    );
    await writes;
  };
  return { load, update };
}

// src/mcp/semaphore.ts
function createSemaphore(limit) {
  const capacity = Math.max(1, Math.floor(limit));
  const queue = [];
  let active = 0;
  const acquire = () => {
    if (active < capacity) {
      active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve2) => queue.push(resolve2));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    }
  };
}

// src/mcp/upstream.ts
var CLOSE_BUDGET_MS = 2e3;
var loadSdkSession = async (options) => (await import("./chunks/sdkSession-ZIMLW5C6.mjs")).openSdkSession(options);
function applyIdentityHeaders(headers, credentials, userAgent) {
  const values = [
    ["authorization", credentials.apiKey ? `Bearer ${credentials.apiKey}` : void 0],
    ["x-openviking-account", credentials.account],
    ["x-openviking-user", credentials.user],
    ["x-openviking-actor-peer", credentials.peerId],
    ["user-agent", userAgent]
  ];
  for (const [name, value] of values) {
    const trimmed = value?.trim();
    if (trimmed) headers.set(name, trimmed);
    else headers.delete(name);
  }
}
function createUpstream(options) {
  const { config, log } = options;
  const openSession = options.openSession ?? loadSdkSession;
  const semaphore = createSemaphore(options.maxConcurrent);
  const defaultTimeout = () => config.current().settings.timeoutMs;
  let link;
  let closed = false;
  const identityFetch = (url, init) => {
    const headers = new Headers(init?.headers);
    applyIdentityHeaders(headers, config.current().credentials, options.userAgent);
    const isPost = (init?.method ?? "GET").toUpperCase() === "POST";
    const timeout = AbortSignal.timeout(defaultTimeout());
    const signal = isPost ? init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout : init?.signal;
    return options.fetch(url, { ...init, headers, ...signal ? { signal } : {} });
  };
  const closeIfIdle = (target) => {
    if (target.retired && target.inFlight === 0) void target.session.then((session) => session.close(), () => void 0);
  };
  const retire = (target) => {
    if (!target || target.retired) return;
    target.retired = true;
    if (link === target) link = void 0;
    closeIfIdle(target);
  };
  const currentLink = (timeoutMs) => {
    if (link && !link.retired) return link;
    const mcpUrl = config.current().credentials.mcpUrl;
    let fresh;
    const session = openSession({
      mcpUrl,
      fetch: identityFetch,
      clientInfo: options.clientInfo,
      timeoutMs,
      onNotification: options.onNotification,
      onClosed: () => retire(fresh),
      onError: (message) => log.debug("upstream transport error", { message })
    });
    fresh = { mcpUrl, session, inFlight: 0, retired: false };
    session.then(
      (session2) => {
        log.debug("upstream session opened", { mcpUrl });
        options.onProfile(mcpUrl, session2.profile);
      },
      () => retire(fresh)
    );
    link = fresh;
    return fresh;
  };
  const attempt = async (method, params, deadline, signal) => {
    const remaining = () => deadline - options.now();
    if (remaining() <= 0) throw new UpstreamError({ kind: "timeout", timeoutMs: defaultTimeout() });
    const target = currentLink(remaining());
    target.inFlight += 1;
    try {
      const session = await target.session;
      if (remaining() <= 0) throw new UpstreamError({ kind: "timeout", timeoutMs: defaultTimeout() });
      return await session.request(method, params, { timeoutMs: remaining(), ...signal ? { signal } : {} });
    } catch (error) {
      const failure = failureOf(error);
      if (failure.kind === "network" || failure.kind === "protocol" || failure.kind === "http" && (failure.status === 400 || failure.status === 404)) {
        retire(target);
      }
      throw error;
    } finally {
      target.inFlight -= 1;
      closeIfIdle(target);
    }
  };
  const refreshConfig = () => {
    if (!config.refresh()) return false;
    log.debug("configuration reloaded");
    if (link && link.mcpUrl !== config.current().credentials.mcpUrl) retire(link);
    return true;
  };
  return {
    request(method, params, callOptions = {}) {
      if (closed) return Promise.reject(new UpstreamError({ kind: "cancelled" }));
      return semaphore.run(async () => {
        refreshConfig();
        const deadline = options.now() + (callOptions.timeoutMs ?? defaultTimeout());
        try {
          return await attempt(method, params, deadline, callOptions.signal);
        } catch (error) {
          const failure = failureOf(error);
          if (!shouldRetry(failure, refreshConfig)) throw error;
          log.debug("retrying upstream call once", { method, reason: failure.kind === "http" ? failure.status : failure.kind });
          return await attempt(method, params, deadline, callOptions.signal);
        }
      });
    },
    warmUp() {
      if (closed) return;
      refreshConfig();
      currentLink(defaultTimeout()).session.catch(
        (error) => log.debug("upstream not reachable yet", { failure: failureOf(error).kind })
      );
    },
    async close() {
      closed = true;
      const last = link;
      link = void 0;
      if (!last) return;
      const closing = last.session.then((session) => session.close(), () => void 0);
      await Promise.race([closing, new Promise((resolve2) => setTimeout(resolve2, CLOSE_BUDGET_MS).unref())]);
    }
  };
}
function failureOf(error) {
  return error instanceof UpstreamError ? error.failure : { kind: "protocol", message: error instanceof Error ? error.message : String(error) };
}
function shouldRetry(failure, refreshConfig) {
  if (failure.kind !== "http") return false;
  if (failure.status === 400 || failure.status === 404) return true;
  if (failure.status === 401 || failure.status === 403) return refreshConfig();
  return false;
}

// src/mcp/proxy.ts
var DEFAULT_MAX_CONCURRENT = 16;
var STDIN_END_DRAIN_MS = 1e3;
function createProxy(options) {
  let watch;
  const log = createStderrLog({
    write: options.writeStderr,
    now: options.now,
    debugEnabled: () => watch?.current().settings.debug ?? false,
    secrets: () => [watch?.current().credentials.apiKey]
  });
  const config = createConfigWatch({
    load: options.loadConfig,
    env: options.env,
    homeDir: options.homeDir,
    warn: (message) => log.warn(message)
  });
  watch = config;
  const cacheDir = options.cacheDir === null ? void 0 : options.cacheDir ?? join7(resolveDataDir(options.env, options.homeDir), "cache");
  const snapshots = createSnapshotStore({ cacheDir, now: options.now, warn: (message) => log.warn(message) });
  const mcpUrl = () => config.current().credentials.mcpUrl;
  void snapshots.load(mcpUrl());
  let closing = false;
  let resolveClosed;
  const closed = new Promise((resolve2) => resolveClosed = resolve2);
  const inFlight = /* @__PURE__ */ new Map();
  const pending = /* @__PURE__ */ new Set();
  const write = (line) => {
    if (!closing) options.stdout.write(line);
  };
  const sendNotification = (notification) => write(notificationLine(notification));
  const rememberProfile = (url, profile) => {
    void snapshots.load(url).then((snapshot) => {
      if (JSON.stringify(snapshot?.profile) !== JSON.stringify(profile)) void snapshots.update(url, { profile });
    });
    discovery.onReconnected();
  };
  const upstream = createUpstream({
    config,
    fetch: options.fetch,
    userAgent: options.userAgent,
    clientInfo: { name: options.serverInfo.name, version: options.serverInfo.version },
    maxConcurrent: options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    now: options.now,
    log,
    onNotification: sendNotification,
    onProfile: rememberProfile
  });
  const discovery = createDiscovery({
    request: (method, params, callOptions) => upstream.request(method, params, callOptions),
    snapshots,
    mcpUrl,
    timeoutMs: () => config.current().settings.timeoutMs,
    notify: sendNotification,
    log
  });
  const answer = async (request, signal) => {
    switch (request.method) {
      case "initialize": {
        const snapshot = await snapshots.load(mcpUrl());
        setImmediate(() => upstream.warmUp());
        return buildInitializeResult(request.params, snapshot?.profile, options.serverInfo);
      }
      case "ping":
        return {};
      default: {
        const field = listingField(request.method, request.params);
        if (field !== void 0) return discovery.answer(request, field, signal);
        return upstream.request(request.method, request.params, { signal });
      }
    }
  };
  const toRpcError = (error) => {
    if (isUpstreamError(error)) return failureToRpcError(error.failure, { mcpUrl: mcpUrl(), credentials: config.current().credentials });
    log.warn("internal error while handling a request", { error: describeError(error) });
    return { code: RpcErrorCode.internalError, message: `OpenViking MCP proxy internal error: ${describeError(error)}` };
  };
  const handleRequest = (request) => {
    const handling = answerRequest(request);
    pending.add(handling);
    void handling.finally(() => pending.delete(handling));
  };
  const answerRequest = async (request) => {
    const controller = new AbortController();
    inFlight.set(request.id, controller);
    try {
      const result = await answer(request, controller.signal);
      if (!controller.signal.aborted) write(resultLine(request.id, result));
    } catch (error) {
      if (!controller.signal.aborted) write(errorLine(request.id, toRpcError(error)));
    } finally {
      if (inFlight.get(request.id) === controller) inFlight.delete(request.id);
    }
  };
  const handleNotification = (notification) => {
    if (notification.method === "notifications/cancelled") {
      const id = notification.params?.requestId;
      if (typeof id === "string" || typeof id === "number") inFlight.get(id)?.abort();
      return;
    }
    log.debug("host notification", { method: notification.method });
  };
  const onLine = (line) => {
    const message = parseMessage(line);
    switch (message.kind) {
      case "request":
        handleRequest(message.request);
        return;
      case "notification":
        handleNotification(message.notification);
        return;
      case "invalid":
        write(errorLine(message.id, message.error));
        return;
      case "response":
        return;
    }
  };
  const close = async () => {
    if (closing) return closed;
    closing = true;
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
    await upstream.close().catch((error) => log.debug("upstream close failed", { error: describeError(error) }));
    resolveClosed();
    return closed;
  };
  let draining = false;
  const drainThenClose = async () => {
    if (draining) return;
    draining = true;
    const budget = new Promise((resolve2) => setTimeout(resolve2, STDIN_END_DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...pending]), budget]);
    await close();
  };
  const feed = createLineSplitter(onLine);
  options.stdin.on("data", (chunk) => feed(chunk));
  options.stdin.once("end", () => void drainThenClose());
  options.stdin.once("close", () => void drainThenClose());
  options.stdin.once("error", () => void close());
  options.stdout.once("error", () => void close());
  return { log, closed, close };
}

// src/mcp/main.ts
var EXIT_FLUSH_BUDGET_MS = 500;
function main() {
  const env = process.env;
  const homeDir = homedir();
  const proxy = createProxy({
    stdin: process.stdin,
    stdout: process.stdout,
    writeStderr: (text2) => void process.stderr.write(text2),
    loadConfig: () => loadPluginConfig({ env, homeDir }),
    env,
    homeDir,
    fetch: (url, init) => fetch(url, init),
    now: Date.now,
    serverInfo: { name: "openviking", version: PLUGIN_VERSION },
    userAgent: USER_AGENT
  });
  const toStderr = (...args) => proxy.log.debug("console output", { text: args.map(String).join(" ") });
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  const stop = () => void proxy.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.on("uncaughtException", (error) => proxy.log.warn("uncaught exception", { error: error.message }));
  process.on("unhandledRejection", (reason) => proxy.log.warn("unhandled rejection", { error: String(reason) }));
  void proxy.closed.then(() => {
    const exit = () => process.exit(0);
    setTimeout(exit, EXIT_FLUSH_BUDGET_MS).unref();
    process.stdout.write("", exit);
  });
}
main();
