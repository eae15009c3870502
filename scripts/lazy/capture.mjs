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
function loadConfigFile(path, shownAs, readFile2) {
  let text2;
  try {
    text2 = readFile2(path);
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
function loadCredentialFiles({ env, homeDir, readFile: readFile2 }) {
  const cliOverride = text(env["OPENVIKING_CLI_CONFIG_FILE"]);
  const ovOverride = text(env["OPENVIKING_CONFIG_FILE"]);
  const load = (override, fallbackName) => {
    const path = expandHome(override ?? join2("~", ".openviking", fallbackName), homeDir);
    return loadConfigFile(path, displayPath(path, homeDir), readFile2);
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
function resolveConfig({ env, homeDir, readFile: readFile2 = readSmallTextFile }) {
  const { credentials, warnings, cliFile } = resolveCredentials({ env, homeDir, readFile: readFile2 });
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

// src/hook/deps.ts
var PASS = Object.freeze({ kind: "pass" });

// src/session/bypass.ts
function isBypassed(settings, sessionId, cwd) {
  if (settings.bypassSession) return true;
  const subjects = [sessionId, cwd].filter((value) => typeof value === "string" && value !== "");
  return settings.bypassPatterns.some((pattern) => {
    const glob = pattern.trim();
    if (glob === "") return false;
    const regex = globToRegExp(glob);
    return subjects.some((subject) => regex.test(subject));
  });
}
function globToRegExp(glob) {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === "*" && glob[index + 1] === "*") {
      source += ".*";
      index++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

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

// src/capture/requests.ts
import { join as join6 } from "node:path";

// src/store/atomic.ts
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join as join4 } from "node:path";
var PRIVATE_FILE_MODE = 384;
var PRIVATE_DIR_MODE = 448;
var TEMP_SUFFIX = ".tmp";
async function ensurePrivateDir(dir) {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
function tempPathFor(path) {
  const unique = `${process.pid}.${uniqueToken()}`;
  return join4(dirname(path), `${basename(path)}.${unique}${TEMP_SUFFIX}`);
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

// src/capture/paths.ts
import { join as join5 } from "node:path";
function captureDir(dataDir) {
  return join5(dataDir, "capture");
}
function requestDir(dataDir, ovSessionId2) {
  return join5(captureDir(dataDir), `${safeFileKey(ovSessionId2)}.requests`);
}

// src/capture/requests.ts
async function postRequest(dataDir, request) {
  const name = `${String(Math.max(0, Math.trunc(request.at))).padStart(15, "0")}-${uniqueToken()}.json`;
  try {
    await writeJsonAtomic(join6(requestDir(dataDir, request.ovSessionId), name), request, { fsync: false });
    return true;
  } catch {
    return false;
  }
}

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

// src/session/workspace.ts
function resolveWorkspace(input, env, cwd) {
  for (const candidate of [input.cwd, env.CODEBUDDY_PROJECT_DIR, env.CLAUDE_PROJECT_DIR]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate;
  }
  return cwd;
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

// src/stages/capture.ts
var PRE_COMPACT_MAX_MS = 45e3;
var SPAWN_FALLBACK_MS = 4e3;
async function runCapture(input, deps) {
  if (input.hook_event_name === "SubagentStart") return PASS;
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  const { settings } = config;
  if (!settings.enabled || !settings.autoCapture) return PASS;
  const request = requestForEvent(input, deps.env, deps.cwd, deps.now());
  if (request === void 0 || isBypassed(settings, request.hostSessionId, request.workspace)) return PASS;
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  if (!await postRequest(dataDir, request)) {
    deps.log.warn("capture request not written; the next turn will catch up", { session: request.ovSessionId });
    return PASS;
  }
  if (input.hook_event_name === "PreCompact") {
    const deadlineMs = Math.min(settings.syncCaptureDeadlineMs, PRE_COMPACT_MAX_MS);
    await captureNow(request, deps, config, deadlineMs, Math.floor(deadlineMs / 2));
  } else if (!deps.spawnDetached(["worker", "capture"], workerJob(input))) {
    deps.log.warn("capture worker not spawned; capturing in the hook", { session: request.ovSessionId });
    await captureNow(request, deps, config, SPAWN_FALLBACK_MS, 0);
  }
  return PASS;
}
async function captureNow(request, deps, config, deadlineMs, lockWaitMs) {
  const { drainInProcess } = await import("./worker.mjs");
  const status = await drainInProcess(request.ovSessionId, deps, config, deadlineMs, lockWaitMs);
  deps.log.debug("synchronous capture", { session: request.ovSessionId, event: request.event, status });
}
function workerJob(input) {
  return JSON.stringify(Object.fromEntries(Object.entries(input).filter(([, value]) => value === null || typeof value !== "object")));
}
export {
  runCapture
};
