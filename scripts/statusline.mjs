// src/statusline/main.ts
import { homedir } from "node:os";

// src/hook/stdin.ts
var MAX_STDIN_BYTES = 4 * 1024 * 1024;
function readBoundedStdin(source, maxBytes, timeoutMs) {
  if (source.isTTY) return Promise.resolve({ status: "tty", text: "" });
  return new Promise((resolve2) => {
    const chunks = [];
    let size = 0;
    let done = false;
    const finish2 = (status) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      source.removeAllListeners();
      source.on("error", () => void 0);
      if (status !== "complete") source.destroy();
      resolve2({ status, text: status === "complete" ? Buffer.concat(chunks).toString("utf8") : "" });
    };
    const timer = setTimeout(() => finish2("timeout"), timeoutMs);
    source.on("data", (chunk) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) return finish2("overflow");
      chunks.push(buffer);
    });
    source.on("end", () => finish2("complete"));
    source.on("close", () => finish2("complete"));
    source.on("error", () => finish2("error"));
  });
}

// src/store/status.ts
import { join } from "node:path";

// src/store/atomic.ts
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";

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
async function readJsonDetailed(path) {
  let text2;
  try {
    text2 = await readFile(path, "utf8");
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

// src/openviking/narrow.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/store/status.ts
function statusFile(dataDir, name) {
  return join(dataDir, "status", `${name}.json`);
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
function latestMark(marks) {
  let best;
  for (const [sessionId, mark] of Object.entries(marks)) if (!best || mark.at > best.mark.at) best = { sessionId, mark };
  return best;
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
var ANSI = { green: "32", red: "31", yellow: "33", dim: "2" };
function formatStatusLine(facts) {
  const paint = (tone, text2) => facts.color ? `\x1B[${ANSI[tone]}m${text2}\x1B[0m` : text2;
  if (!facts.enabled) return `OV ${paint("dim", "off")}`;
  const parts = [serverPart(facts, paint)];
  const queued = (facts.queue?.pending.count ?? 0) + (facts.queue?.claimed.count ?? 0);
  if (queued > 0) parts.push(paint("yellow", `${queued} queued`));
  const dead = facts.queue?.dead.count ?? 0;
  if (dead > 0) parts.push(paint("red", `${dead} dead`));
  const recall = recallPart(facts);
  if (recall) parts.push(recall);
  return `OV ${parts.join(" \xB7 ")}`;
}
function serverPart(facts, paint) {
  const server = facts.snapshot.server;
  if (!server) return paint("dim", "not contacted yet");
  const age = facts.now - server.at;
  if (!server.up) return `${paint("red", "\u25CB down")} ${paint("dim", formatAge(age))}`;
  return age > STALE_SERVER_MS ? `${paint("green", "\u25CF up")} ${paint("dim", formatAge(age))}` : paint("green", "\u25CF up");
}
function recallPart(facts) {
  const own = facts.sessionId ? facts.snapshot.recall[facts.sessionId] : void 0;
  const mark = own ?? latestMark(facts.snapshot.recall)?.mark;
  if (!mark) return void 0;
  const memories = mark.count === 1 ? "1 memory" : `${mark.count} memories`;
  return `recall ${memories} ${formatAge(facts.now - mark.at)}`;
}
function formatAge(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1e3));
  if (seconds < 5) return "now";
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}
function colorAllowed(env) {
  return !env.NO_COLOR && env.TERM !== "dumb";
}

// src/config/configFile.ts
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join as join2, resolve } from "node:path";
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
  if (path.startsWith("~/")) return join2(homeDir, path.slice(2));
  return isAbsolute(path) ? path : resolve(homeDir, path);
}
function displayPath(path, homeDir) {
  const home = homeDir.endsWith("/") ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

// src/config/credentials.ts
import { join as join3 } from "node:path";
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
    const path = expandHome(override ?? join3("~", ".openviking", fallbackName), homeDir);
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

// src/session/ids.ts
var OV_SESSION_PREFIX = "cb-";
function sanitizeIdPart(raw) {
  return raw.trim().replace(/[^A-Za-z0-9._-]/g, "-");
}
function ovSessionId(hostSessionId) {
  const id = sanitizeIdPart(hostSessionId);
  return id === "" ? "" : `${OV_SESSION_PREFIX}${id}`;
}

// src/store/paths.ts
import { isAbsolute as isAbsolute2, join as join4 } from "node:path";
var DATA_DIR_VARIABLES = ["CODEBUDDY_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA", "OPENVIKING_CODEBUDDY_DATA_DIR"];
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== void 0) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join4(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join4(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join4(homeDir, value.slice(2)) : value;
  return isAbsolute2(expanded) ? expanded : void 0;
}
function storeLayout(root) {
  return {
    root,
    sessionsDir: join4(root, "sessions"),
    locksDir: join4(root, "locks"),
    queueDir: join4(root, "queue"),
    cacheDir: join4(root, "cache")
  };
}

// src/store/queueFiles.ts
import { readdir } from "node:fs/promises";
import { join as join5 } from "node:path";
var PENDING_SUFFIX = ".json";
var CLAIMED_SUFFIX = ".processing";
var SEQ_DIGITS = 6;
var MAX_SEQ = 10 ** SEQ_DIGITS - 1;
function queuePaths(queueDir) {
  return {
    pendingDir: join5(queueDir, "pending"),
    deadDir: join5(queueDir, "dead"),
    enqueueLock: join5(queueDir, "enqueue.lock"),
    replayLock: join5(queueDir, "replay.lock")
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

// src/statusline/gather.ts
async function gatherStatusLineFacts(host) {
  const dataDir = resolveDataDir(host.env, host.homeDir);
  const { settings } = loadPluginConfig({ env: host.env, homeDir: host.homeDir });
  const [snapshot, queue] = await Promise.all([
    readStatus(dataDir),
    queueStats(storeLayout(dataDir).queueDir, host.now).catch(() => void 0)
  ]);
  const sessionId = sessionIdOf(host.stdinText);
  return {
    enabled: settings.enabled,
    snapshot,
    ...queue ? { queue } : {},
    ...sessionId ? { sessionId } : {},
    now: host.now,
    color: colorAllowed(host.env)
  };
}
function sessionIdOf(text2) {
  let value;
  try {
    value = JSON.parse(text2);
  } catch {
    return void 0;
  }
  const id = isRecord(value) ? value["session_id"] : void 0;
  return typeof id === "string" && id ? ovSessionId(id) || void 0 : void 0;
}

// src/statusline/main.ts
var MAX_STDIN_BYTES2 = 64 * 1024;
var STDIN_TIMEOUT_MS = 150;
var HARD_EXIT_MS = 1e3;
async function main() {
  const stdin = await readBoundedStdin(process.stdin, MAX_STDIN_BYTES2, STDIN_TIMEOUT_MS);
  const env = process.argv.includes("--no-color") ? { ...process.env, NO_COLOR: "1" } : process.env;
  const facts = await gatherStatusLineFacts({
    env,
    homeDir: homedir(),
    now: Date.now(),
    stdinText: stdin.status === "complete" ? stdin.text : ""
  });
  finish(`${formatStatusLine(facts)}
`);
}
var finished = false;
function finish(line) {
  if (finished) return;
  finished = true;
  process.stdout.write(line, () => process.exit(0));
}
setTimeout(() => finish("OV ?\n"), HARD_EXIT_MS).unref();
main().catch(() => finish("OV ?\n"));
