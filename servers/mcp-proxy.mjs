/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  RpcErrorCode,
  UpstreamError,
  createLineSplitter,
  describeError,
  displayUrl,
  errorLine,
  errorMessage,
  failureToRpcError,
  isRecord,
  isUpstreamError,
  notificationLine,
  parseJson,
  parseMessage,
  resultLine
} from "./chunks/chunk-OKSRYEML.mjs";
import "./chunks/chunk-IMCPPGM2.mjs";

// src/mcp/main.ts
import { homedir } from "node:os";

// src/config/configFile.ts
import { isAbsolute, join, resolve } from "node:path";

// src/store/smallFile.ts
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

// src/store/fileSeam.ts
var PRIVATE_FILE_MODE = 384;
var PRIVATE_DIR_MODE = 448;
var TEMP_SUFFIX = ".tmp";
var MISSING = { absent: "missing", why: "does not exist" };
function smallFileRefusal(kind, size, maxBytes) {
  if (kind !== "file") return { absent: "not-a-file", why: `is ${describeKind(kind)}, not a regular file` };
  return size > maxBytes ? tooLargeFile(maxBytes) : void 0;
}
function unreadableFile(why) {
  return { absent: "unreadable", why: `cannot be read (${why})` };
}
function tooLargeFile(maxBytes) {
  return { absent: "too-large", why: `is larger than ${maxBytes} bytes` };
}
function describeKind(kind) {
  return kind === "other" ? "not a file" : `a ${kind}`;
}

// src/store/smallFile.ts
var OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
function readSmallFile(path, maxBytes) {
  let stats;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable(error);
  }
  if (stats === void 0) return MISSING;
  const refused2 = refusal(stats, maxBytes);
  if (refused2 !== void 0) return refused2;
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return unreadable(error);
  }
  try {
    const opened = fstatSync(fd);
    return refusal(opened, maxBytes) ?? readOpen(fd, opened.size, maxBytes);
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}
function refusal(stats, maxBytes) {
  return smallFileRefusal(kindOf(stats), stats.size, maxBytes);
}
function readOpen(fd, expected, maxBytes) {
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, expected + 1));
  let length = 0;
  for (; ; ) {
    if (length === buffer.length) {
      if (buffer.length > maxBytes) return tooLargeFile(maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2 + 4096));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
    if (expected > 0 && length === expected) break;
  }
  if (length > maxBytes) return tooLargeFile(maxBytes);
  return { text: buffer.toString("utf8", 0, length) };
}
function unreadable(error) {
  const code = error?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return MISSING;
  if (code === "ENXIO") return { absent: "not-a-file", why: "is a socket or device, not a regular file" };
  return unreadableFile(errorMessage(error));
}
function kindOf(stats) {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  if (stats.isSocket()) return "socket";
  return "other";
}

// src/util/jsonSyntax.ts
var Stop = class {
  constructor(at, problem) {
    this.at = at;
    this.problem = problem;
  }
  at;
  problem;
};
var WHITESPACE = /* @__PURE__ */ new Set([" ", "	", "\n", "\r"]);
var ESCAPES = /* @__PURE__ */ new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
var LITERALS = ["true", "false", "null"];
function jsonSyntaxProblem(text2) {
  const scanner = new Scanner(text2);
  try {
    scanner.document();
    return void 0;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...lineAndColumn(text2, error.at), problem: error.problem };
  }
}
function describeJsonSyntax(text2) {
  const found = jsonSyntaxProblem(text2);
  return found === void 0 ? "not JSON" : `line ${found.line}, column ${found.column}: ${found.problem}`;
}
function lineAndColumn(text2, at) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text2.length; i++) {
    if (text2[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}
var Scanner = class {
  constructor(text2) {
    this.text = text2;
  }
  text;
  at = 0;
  document() {
    if (this.text.charCodeAt(0) === 65279)
      throw new Stop(0, "a byte-order mark before the JSON (save the file as UTF-8 without BOM)");
    this.space();
    if (this.at >= this.text.length) throw new Stop(this.at, "no JSON value at all");
    this.value();
    this.space();
    if (this.at < this.text.length) throw new Stop(this.at, "more text after the end of the JSON value");
  }
  value() {
    const char = this.text[this.at];
    if (char === void 0) throw new Stop(this.at, "the text ends where a value should be");
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    if (char === "-" || isDigit(char)) return this.number();
    for (const literal of LITERALS) if (this.text.startsWith(literal, this.at)) return void (this.at += literal.length);
    if (char === "'") throw new Stop(this.at, "a single quote: JSON strings take double quotes");
    throw new Stop(
      this.at,
      "not a JSON value here (a value is a string in double quotes, a number, true, false, null, an object or an array)"
    );
  }
  object() {
    this.at++;
    this.space();
    if (this.text[this.at] === "}") return void this.at++;
    for (; ; ) {
      this.propertyName();
      this.space();
      if (this.text[this.at] !== ":") throw this.expected("':' after the property name");
      this.at++;
      this.space();
      this.value();
      this.space();
      const next = this.text[this.at];
      if (next === "}") return void this.at++;
      if (next !== ",") throw this.expected("',' or '}' after a property's value");
      const comma = this.at;
      this.at++;
      this.space();
      if (this.text[this.at] === "}") throw new Stop(comma, "a comma before '}' (a trailing comma)");
    }
  }
  propertyName() {
    const char = this.text[this.at];
    if (char === '"') return this.string();
    if (char === void 0) throw new Stop(this.at, "the text ends inside an object");
    throw new Stop(this.at, "expected a property name in double quotes");
  }
  array() {
    this.at++;
    this.space();
    if (this.text[this.at] === "]") return void this.at++;
    for (; ; ) {
      this.value();
      this.space();
      const next = this.text[this.at];
      if (next === "]") return void this.at++;
      if (next !== ",") throw this.expected("',' or ']' after an array item");
      const comma = this.at;
      this.at++;
      this.space();
      if (this.text[this.at] === "]") throw new Stop(comma, "a comma before ']' (a trailing comma)");
    }
  }
  string() {
    const start = this.at;
    this.at++;
    for (; ; ) {
      const char = this.text[this.at];
      if (char === void 0) throw new Stop(start, "a string that is never closed");
      if (char === '"') return void this.at++;
      if (char.charCodeAt(0) < 32)
        throw new Stop(this.at, "a line break or control character inside a string (write it as \\n, \\t, \u2026)");
      if (char === "\\") {
        const escape = this.text[this.at + 1];
        if (escape === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6)))
            throw new Stop(this.at, "a \\u escape without four hex digits");
          this.at += 6;
          continue;
        }
        if (escape === void 0 || !ESCAPES.has(escape))
          throw new Stop(this.at, "a backslash that starts no valid escape (write a backslash as \\\\)");
        this.at += 2;
        continue;
      }
      this.at++;
    }
  }
  number() {
    const start = this.at;
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(start, start + 400));
    if (match === null) throw new Stop(start, "an invalid number");
    this.at += match[0].length;
    if (isDigit(this.text[this.at] ?? "") || this.text[this.at] === ".")
      throw new Stop(start, "an invalid number (a leading zero, or a dot without digits after it)");
  }
  space() {
    while (WHITESPACE.has(this.text[this.at] ?? "")) this.at++;
  }
  expected(what) {
    return this.at >= this.text.length ? new Stop(this.at, `the text ends early (expected ${what})`) : new Stop(this.at, `expected ${what}`);
  }
};
function isDigit(char) {
  return char >= "0" && char <= "9";
}

// src/config/configFile.ts
var MAX_CONFIG_BYTES = 1024 * 1024;
var RefusedFile = class extends Error {
  name = "RefusedFile";
};
var FORBIDDEN_KEYS = /* @__PURE__ */ new Set(["__proto__", "constructor", "prototype"]);
function readSmallTextFile(path) {
  return readTextAtMost(path, MAX_CONFIG_BYTES);
}
function readTextAtMost(path, maxBytes) {
  const file = readSmallFile(path, maxBytes);
  if (file.absent === void 0) return file.text;
  if (file.absent === "missing") return void 0;
  throw new RefusedFile(file.why);
}
function loadConfigFile(path, shownAs, readFile) {
  let text2;
  try {
    text2 = readFile(path);
  } catch (error) {
    return refused(
      path,
      shownAs,
      error instanceof RefusedFile ? error.message : `cannot be read (${errorMessage(error)})`
    );
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
  } catch {
    return refused(path, shownAs, `is not valid JSON (${describeJsonSyntax(text2)})`);
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

// src/config/configFiles.ts
import { join as join4 } from "node:path";

// src/store/fsUtil.ts
import {
  closeSync as closeSync2,
  constants as constants2,
  fchmodSync,
  fstatSync as fstatSync2,
  mkdirSync,
  openSync as openSync2,
  readdirSync,
  realpathSync,
  statSync as statSync2,
  unlinkSync,
  writeFileSync,
  writeSync
} from "node:fs";
function namesInDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
function statQuietly(path) {
  try {
    return statSync2(path, { throwIfNoEntry: false });
  } catch {
    return void 0;
  }
}
function realPath(path) {
  try {
    return realpathSync(path);
  } catch {
    return void 0;
  }
}
function realPathNative(path) {
  try {
    return realpathSync.native(path);
  } catch {
    return void 0;
  }
}
var APPEND_FLAGS = constants2.O_WRONLY | constants2.O_APPEND | constants2.O_CREAT | constants2.O_NOFOLLOW | constants2.O_NONBLOCK;

// src/config/pluginOptions.ts
import { join as join3 } from "node:path";

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
import { isAbsolute as isAbsolute2, join as join2 } from "node:path";
var OVERRIDE_VARIABLE = "OPENVIKING_CODEBUDDY_DATA_DIR";
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  const override = usablePath(env[OVERRIDE_VARIABLE], homeDir);
  if (override !== void 0) return { dir: override, source: `env:${OVERRIDE_VARIABLE}` };
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join2(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join2(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function codebuddyConfigDir(env, homeDir) {
  return usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir) ?? join2(homeDir, ".codebuddy");
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join2(homeDir, value.slice(2)) : value;
  return isAbsolute2(expanded) ? expanded : void 0;
}
var KEY_PREFIX_MAX_CHARS = 48;
var KEY_HASH_HEX_CHARS = 16;
function safeFileKey(id) {
  const prefix = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, KEY_PREFIX_MAX_CHARS) || "id";
  const hash = hash64Hex(id).slice(0, KEY_HASH_HEX_CHARS);
  return `${prefix}-${hash}`;
}

// src/config/pluginOptions.ts
var USER_CONFIG_KEYS = ["server_url", "api_key", "account", "user"];
var PLUGIN_NAME = "openviking";
var PREFERRED_INSTALL_IDS = [`${PLUGIN_NAME}@openviking-codebuddy`, `${PLUGIN_NAME}@inline`];
var OPTION_PREFIXES = ["CODEBUDDY_PLUGIN_OPTION_", "CLAUDE_PLUGIN_OPTION_", "PLUGIN_OPT_"];
function readUserConfig(env) {
  const values = {};
  for (const key of USER_CONFIG_KEYS) {
    for (const prefix of OPTION_PREFIXES) {
      const raw = text(env[`${prefix}${key.toUpperCase()}`]) ?? text(env[`${prefix}${key}`]);
      if (raw === void 0 || /^\$\{(?:user_config\.|PLUGIN_OPT:)[^}]*\}$/.test(raw)) continue;
      values[key] = raw;
      break;
    }
  }
  return values;
}
function startedByHost(env) {
  return text(env.CODEBUDDY_PLUGIN_ROOT) !== void 0 || text(env.CLAUDE_PLUGIN_ROOT) !== void 0;
}
function resolveUserConfig(input) {
  const fromEnv = readUserConfig(input.env);
  const sources = {};
  for (const key of Object.keys(fromEnv)) sources[key] = `userConfig:${key}`;
  const readStored = input.readStored ?? !startedByHost(input.env);
  if (Object.keys(fromEnv).length > 0 || !readStored)
    return { values: fromEnv, sources, files: [], warnings: [], refused: [] };
  return storedUserConfig(input);
}
function storedUserConfig({ env, homeDir, readFile }) {
  const dir = codebuddyConfigDir(env, homeDir);
  const settingsPath = join3(dir, "settings.json");
  const credentialsPath = join3(dir, "credentials.json");
  const settings = loadConfigFile(settingsPath, displayPath(settingsPath, homeDir), readFile);
  const secrets = loadConfigFile(credentialsPath, displayPath(credentialsPath, homeDir), readFile);
  const warnings = [settings.warning, secrets.warning].filter((warning) => warning !== void 0);
  const files = [settings, secrets].filter((file) => file.exists).map((file) => file.path);
  const refused2 = [settings, secrets].filter((file) => file.exists && file.value === void 0 && file.warning !== void 0).map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? "" }));
  const options = (id) => section(section(settings.value, "pluginConfigs"), id, "options");
  const secretsOf = (id) => section(section(secrets.value, "pluginSecrets"), id);
  const ids = /* @__PURE__ */ new Set([
    ...PREFERRED_INSTALL_IDS,
    ...[
      ...Object.keys(section(settings.value, "pluginConfigs") ?? {}),
      ...Object.keys(section(secrets.value, "pluginSecrets") ?? {})
    ].filter((id) => id.startsWith(`${PLUGIN_NAME}@`)).sort()
  ]);
  for (const id of ids) {
    const values = {};
    const sources = {};
    for (const key of USER_CONFIG_KEYS) {
      const plain = scalar(options(id)?.[key]);
      const secret = scalar(secretsOf(id)?.[key]);
      const [value, source] = secret !== void 0 ? [secret, `file:${displayPath(credentialsPath, homeDir)}#pluginSecrets.${id}.${key}`] : [plain, `file:${displayPath(settingsPath, homeDir)}#pluginConfigs.${id}.options.${key}`];
      if (value === void 0) continue;
      values[key] = value;
      sources[key] = source;
    }
    if (Object.keys(values).length > 0) return { values, sources, files, warnings, refused: refused2 };
  }
  return { values: {}, sources: {}, files, warnings, refused: refused2 };
}
function section(value, ...path) {
  let current = value;
  for (const key of path) current = isRecord(current) ? current[key] : void 0;
  return isRecord(current) ? current : void 0;
}
function scalar(value) {
  if (typeof value === "string") return text(value);
  return typeof value === "number" || typeof value === "boolean" ? String(value) : void 0;
}
function text(value) {
  const trimmed = value?.trim();
  return trimmed ? trimmed : void 0;
}

// src/config/configFiles.ts
function credentialFilePaths(env, homeDir) {
  const at = (override, fallbackName) => expandHome(override ?? join4("~", ".openviking", fallbackName), homeDir);
  return {
    cli: at(text(env["OPENVIKING_CLI_CONFIG_FILE"]), "ovcli.conf"),
    ov: at(text(env["OPENVIKING_CONFIG_FILE"]), "ov.conf")
  };
}
function loadCredentialFiles(input) {
  const { env, homeDir, readFile } = input;
  const paths = credentialFilePaths(env, homeDir);
  const load = (path) => loadConfigFile(path, displayPath(path, homeDir), readFile);
  const ovFile = load(paths.ov);
  if (ovFileMayBeCli(env) && looksLikeOvcli(ovFile.value))
    return { cliFile: ovFile, ovFile: { path: ovFile.path, exists: false } };
  return { cliFile: load(paths.cli), ovFile };
}
function ovFileMayBeCli(env) {
  return text(env["OPENVIKING_CONFIG_FILE"]) !== void 0 && text(env["OPENVIKING_CLI_CONFIG_FILE"]) === void 0;
}
function looksLikeOvcli(value) {
  if (!value || isRecord(value["server"])) return false;
  return ["url", "api_key", "account", "account_id", "user", "user_id", "actor_peer_id"].some(
    (key) => typeof value[key] === "string"
  );
}
function configurationFiles(env, homeDir, credentials) {
  const { cli, ov } = credentialFilePaths(env, homeDir);
  return [.../* @__PURE__ */ new Set([cli, ov, ...credentials?.files ?? []])].sort();
}
function filesStamp(paths) {
  return paths.map((path) => {
    const stats = statQuietly(path);
    return stats ? `${path}:${stats.mtimeMs}:${stats.size}` : `${path}:-`;
  }).join("|");
}
function createConfigWatch(options) {
  let config = options.load();
  let paths = configurationFiles(options.env, options.homeDir, config.credentials);
  let stamp = filesStamp(paths);
  for (const warning of config.warnings) options.warn(warning);
  return {
    current: () => config,
    refresh() {
      const now = filesStamp(paths);
      if (now === stamp) return false;
      stamp = now;
      try {
        config = options.load();
      } catch (error) {
        options.warn(`config reload failed, keeping the previous configuration: ${errorMessage(error)}`);
        return false;
      }
      for (const warning of config.warnings) options.warn(warning);
      const nextPaths = configurationFiles(options.env, options.homeDir, config.credentials);
      if (nextPaths.join("|") !== paths.join("|")) {
        paths = nextPaths;
        stamp = filesStamp(paths);
      }
      return true;
    }
  };
}

// src/config/credentialCandidates.ts
var FileFields = class _FileFields {
  constructor(file, homeDir, warnings, value, prefix, layer) {
    this.file = file;
    this.homeDir = homeDir;
    this.warnings = warnings;
    this.value = value;
    this.prefix = prefix;
    this.layer = layer;
  }
  file;
  homeDir;
  warnings;
  value;
  prefix;
  layer;
  /** Fields of the whole file. */
  static of(file, homeDir, warnings, layer) {
    return new _FileFields(file, homeDir, warnings, file.value, "", layer);
  }
  get(key) {
    const entry = this.value?.[key];
    const candidate = (value) => ({
      source: this.sourceOf(key),
      value,
      layer: this.layer
    });
    if (entry === void 0 || entry === null) return candidate(void 0);
    if (typeof entry === "number" && Number.isFinite(entry)) return candidate(String(entry));
    if (typeof entry !== "string") {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be a string; ignoring it`);
      return candidate(void 0);
    }
    return candidate(text(entry));
  }
  section(key) {
    const entry = this.value?.[key];
    if (entry !== void 0 && entry !== null && !isRecord(entry)) {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be an object; ignoring it`);
    }
    return new _FileFields(
      this.file,
      this.homeDir,
      this.warnings,
      isRecord(entry) ? entry : void 0,
      `${this.prefix}${key}.`,
      this.layer
    );
  }
  sourceOf(key) {
    return `file:${this.shown()}#${this.prefix}${key}`;
  }
  shown() {
    return displayPath(this.file.path, this.homeDir);
  }
};
function derivedServerUrl(server) {
  const host = server.get("host");
  const port = server.get("port");
  if (host.value === void 0 && port.value === void 0) return { ...host, value: void 0 };
  const portNumber = port.value !== void 0 && /^\d+$/.test(port.value) ? Number(port.value) : 1933;
  const hostName = !host.value || host.value === "0.0.0.0" ? "127.0.0.1" : host.value;
  return { ...host.value !== void 0 ? host : port, value: `http://${hostName}:${portNumber}` };
}
function validUrls(candidates, warnings) {
  return candidates.map((candidate) => {
    const { source, value } = candidate;
    if (value === void 0) return candidate;
    const shown = displayUrl(value, true);
    const url = parseUrl(value);
    if (url === void 0) {
      const problem = `"${shown}" is not an http(s) URL${/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? "" : ` (no scheme: write http://${shown} or https://${shown})`}`;
      warnings.push(`${source}: ${problem}`);
      return { ...candidate, value: shown, invalid: problem };
    }
    if (`${url.pathname}${url.search}${url.hash}`.includes("@")) {
      const problem = `"${shown}" has an "@" after its host (a user or password with an unencoded "/", "?" or "#"?)`;
      warnings.push(`${source}: ${problem}`);
      return { ...candidate, value: shown, invalid: problem };
    }
    if (url.username === "" && url.password === "") return { ...candidate, value: value.replace(/\/+$/, "") };
    warnings.push(
      `${source}: the user and password in the URL are not used (the API key is sent as a header); leaving them out`
    );
    url.username = "";
    url.password = "";
    return { ...candidate, value: url.href.replace(/\/+$/, "") };
  });
}
function parseUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : void 0;
  } catch {
    return void 0;
  }
}
var LOOPBACK_NAMES = /* @__PURE__ */ new Set(["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]);
function sameServer(a, b) {
  return serverIdentity(a) === serverIdentity(b);
}
function serverIdentity(text2) {
  const url = parseUrl(text2);
  if (url === void 0) return text2;
  const host = LOOPBACK_NAMES.has(url.hostname) ? "loopback" : url.hostname;
  return `${url.protocol}//${host}:${url.port || defaultPort(url)}${url.pathname.replace(/\/+$/, "")}`;
}
function defaultPort(url) {
  return url.protocol === "https:" ? "443" : "80";
}

// src/config/credentials.ts
var DEFAULT_BASE_URL = "http://127.0.0.1:1933";
var IDENTITY_FIELDS = /* @__PURE__ */ new Set(["apiKey", "account", "user"]);
function resolveCredentials(input) {
  const layers = credentialLayers(input);
  const { warnings, fromEnv } = layers;
  const modeProblem = credentialModeProblem(input.env);
  if (modeProblem !== void 0) warnings.push(modeProblem);
  const picker = new FieldPicker(credentialMode(input.env) === "cli", warnings);
  const { baseUrl, baseProblem } = pickServer(picker, layers);
  const identity = pickIdentity(picker, layers);
  const mcpCandidates = validUrls([fromEnv("OPENVIKING_MCP_URL")], warnings);
  let mcpUrl = picker.pick("mcpUrl", mcpCandidates) ?? (baseUrl === "" ? "" : `${baseUrl}/mcp`);
  picker.sources.mcpUrl ??= "derived:baseUrl";
  const mcpProblem = mcpCandidates.find((candidate) => candidate.invalid && candidate.source === picker.sources.mcpUrl);
  if (mcpProblem !== void 0) mcpUrl = "";
  const urlProblem = baseProblem ?? mcpProblem;
  const { sources, skipped } = picker;
  const rootKeyOnly = sources.apiKey !== void 0 && sources.apiKey === layers.ovServer.sourceOf("root_api_key");
  if (rootKeyOnly) {
    warnings.push(
      `the only API key found is server.root_api_key in ${displayPath(layers.ovFile.path, input.homeDir)}, the server's root key, which OpenViking refuses on memory APIs (except on trusted-mode servers)`
    );
  }
  const credentials = {
    baseUrl,
    mcpUrl,
    ...definedOnly(identity),
    sources,
    rootKeyOnly,
    files: layers.files,
    ...skipped.length > 0 ? { skipped } : {},
    ...urlProblem?.invalid !== void 0 ? { urlProblem: { source: urlProblem.source, problem: urlProblem.invalid } } : {},
    ...refusedFiles([layers.cliFile, layers.ovFile], layers.refused, input.homeDir)
  };
  return { credentials, warnings, cliFile: layers.cliFile };
}
function credentialLayers(input) {
  const { env, homeDir } = input;
  const warnings = [];
  const { cliFile, ovFile } = loadCredentialFiles(input);
  for (const file of [cliFile, ovFile]) if (file.warning) warnings.push(file.warning);
  const cli = FileFields.of(cliFile, homeDir, warnings, "ovcli");
  const ov = FileFields.of(ovFile, homeDir, warnings, "ovconf");
  const ovServer = ov.section("server");
  const ovHarness = ov.section("codebuddy");
  const options = resolveUserConfig({
    env,
    homeDir,
    readFile: input.readFile,
    ...input.readStoredOptions !== void 0 ? { readStored: input.readStoredOptions } : {}
  });
  warnings.push(...options.warnings);
  return {
    warnings,
    fromEnv: (name) => ({ source: `env:${name}`, value: text(env[name]), layer: "env" }),
    fromUser: (key) => ({
      source: options.sources[key] ?? `userConfig:${key}`,
      value: options.values[key],
      layer: "options"
    }),
    cli,
    ovServer,
    ovHarness,
    cliFile,
    ovFile,
    homeDir,
    files: [...[cliFile, ovFile].filter((file) => file.exists).map((file) => file.path), ...options.files],
    refused: options.refused
  };
}
function pickServer(picker, layers) {
  const { warnings, fromEnv, fromUser, cli, ovServer } = layers;
  const envUrl = validUrls([fromEnv("OPENVIKING_URL"), fromEnv("OPENVIKING_BASE_URL")], warnings);
  const optionsUrl = validUrls([fromUser("server_url")], warnings);
  const cliUrl = validUrls([cli.get("url")], warnings);
  const ovUrl = validUrls([ovServer.get("url"), derivedServerUrl(ovServer)], warnings);
  const named = (candidates) => candidates.find((candidate) => candidate.value !== void 0);
  picker.servers.options = named(optionsUrl);
  picker.servers.ovcli = named(cliUrl);
  picker.servers.ovconf = named(ovUrl) ?? {
    source: `default server of ${displayPath(layers.ovFile.path, layers.homeDir)}`,
    value: DEFAULT_BASE_URL,
    layer: "ovconf"
  };
  const urlCandidates = [...envUrl, ...optionsUrl, ...cliUrl, ...ovUrl];
  picker.baseUrl = picker.pick("baseUrl", urlCandidates) ?? DEFAULT_BASE_URL;
  picker.sources.baseUrl ??= "default";
  const baseProblem = urlCandidates.find(
    (candidate) => candidate.invalid && candidate.source === picker.sources.baseUrl
  );
  if (baseProblem !== void 0) picker.baseUrl = "";
  return baseProblem === void 0 ? { baseUrl: picker.baseUrl } : { baseUrl: picker.baseUrl, baseProblem };
}
function pickIdentity(picker, layers) {
  const { fromEnv, fromUser, cli, ovServer, ovHarness } = layers;
  return {
    apiKey: picker.pick("apiKey", [
      fromEnv("OPENVIKING_BEARER_TOKEN"),
      fromEnv("OPENVIKING_API_KEY"),
      fromUser("api_key"),
      cli.get("api_key"),
      ovHarness.get("apiKey"),
      ovServer.get("root_api_key")
    ]),
    account: picker.pick("account", [
      fromEnv("OPENVIKING_ACCOUNT"),
      fromUser("account"),
      cli.get("account"),
      cli.get("account_id"),
      ovHarness.get("accountId")
    ]),
    user: picker.pick("user", [
      fromEnv("OPENVIKING_USER"),
      fromUser("user"),
      cli.get("user"),
      cli.get("user_id"),
      ovHarness.get("userId")
    ]),
    peerId: picker.pick("peerId", [
      fromEnv("OPENVIKING_PEER_ID"),
      cli.get("actor_peer_id"),
      cli.get("peer_id"),
      ovHarness.get("peerId"),
      ovHarness.get("peer_id")
    ])
  };
}
var FieldPicker = class {
  constructor(cliOnly, warnings) {
    this.cliOnly = cliOnly;
    this.warnings = warnings;
  }
  cliOnly;
  warnings;
  sources = {};
  skipped = [];
  /** The server each layer names (its identity fields belong to it). */
  servers = {};
  /** The server in use, once picked. */
  baseUrl = DEFAULT_BASE_URL;
  pick(field, candidates) {
    let chosen;
    for (const candidate of candidates) {
      if (candidate.value === void 0) continue;
      const own = this.servers[candidate.layer];
      if (this.cliOnly && candidate.layer !== "ovcli")
        this.skip(field, candidate, "cli-mode", "OPENVIKING_CREDENTIAL_SOURCE=cli reads ovcli.conf only");
      else if (chosen !== void 0) this.skip(field, candidate, "shadowed", `${chosen.source} comes first`);
      else if (IDENTITY_FIELDS.has(field) && own?.value !== void 0 && !sameServer(own.value, this.baseUrl)) {
        this.skip(
          field,
          candidate,
          "other-server",
          `it belongs to the server ${own.value} (${own.source}), not to the one in use, ${this.baseUrl} (${this.sources.baseUrl})`
        );
      } else chosen = candidate;
    }
    if (chosen !== void 0) this.sources[field] = chosen.source;
    return chosen?.value;
  }
  skip(field, candidate, kind, reason) {
    this.skipped.push({ field, source: candidate.source, reason, kind });
    if (kind === "cli-mode") this.warnings.push(`${candidate.source}: ${reason}; ignoring it`);
  }
};
var MODE_WORDS = {
  auto: "auto",
  env: "env",
  environment: "env",
  cli: "cli",
  ovcli: "cli",
  file: "cli",
  config: "cli"
};
function modeText(env) {
  return text(env["OPENVIKING_CREDENTIAL_SOURCE"]) ?? text(env["OPENVIKING_CREDENTIALS_SOURCE"]);
}
function credentialMode(env) {
  const raw = (modeText(env) ?? "auto").toLowerCase();
  return Object.hasOwn(MODE_WORDS, raw) ? MODE_WORDS[raw] : "auto";
}
function credentialModeProblem(env) {
  const raw = modeText(env);
  if (raw === void 0 || Object.hasOwn(MODE_WORDS, raw.toLowerCase())) return void 0;
  return `OPENVIKING_CREDENTIAL_SOURCE=${JSON.stringify(raw.slice(0, 40))} is not one of auto, env, cli (also environment, ovcli, file, config); using auto`;
}
function refusedFiles(files, more, homeDir) {
  const refused2 = [
    ...files.filter((file) => file.exists && file.value === void 0 && file.warning !== void 0).map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? "" })),
    ...more
  ];
  return refused2.length > 0 ? { refused: refused2 } : {};
}
function definedOnly(values) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== void 0));
}

// src/config/scalars.ts
var SWITCH_WORDS = {
  "1": true,
  true: true,
  yes: true,
  y: true,
  on: true,
  enable: true,
  enabled: true,
  "0": false,
  false: false,
  no: false,
  n: false,
  off: false,
  disable: false,
  disabled: false
};
function parseSwitch(raw) {
  const text2 = raw?.trim().toLowerCase();
  if (!text2 || !Object.hasOwn(SWITCH_WORDS, text2)) return void 0;
  return SWITCH_WORDS[text2];
}
var SWITCH_WORDS_TEXT = "true/false, yes/no, on/off, 1/0";
var DEFAULT_DEBUG_LOG_PATH = "~/.openviking/logs/codebuddy-hooks.log";

// src/config/knobs.ts
var SECOND = 1e3;
var KNOB_TABLE = {
  enabled: {
    env: "OPENVIKING_MEMORY_ENABLED",
    type: "bool",
    failClosed: false,
    default: true,
    description: "Master switch; off: nothing is sent at all (no recall, start read, capture, replay or MCP call; see README: Privacy)."
  },
  autoRecall: {
    env: "OPENVIKING_AUTO_RECALL",
    type: "bool",
    failClosed: false,
    default: true,
    description: "Inject relevant memories before each prompt."
  },
  autoCapture: {
    env: "OPENVIKING_AUTO_CAPTURE",
    type: "bool",
    failClosed: false,
    default: true,
    description: "Send each finished turn to OpenViking and commit it; off: nothing of the conversation is stored (no capture, no replay of queued turns, no commit); recall still follows `OPENVIKING_AUTO_RECALL`."
  },
  autoProfile: {
    env: "OPENVIKING_AUTO_PROFILE",
    type: "bool",
    default: true,
    description: "Inject the user profile and memory listing at session start."
  },
  mcpEnabled: {
    env: "OPENVIKING_MCP_ENABLED",
    type: "bool",
    default: true,
    description: "Offer this plugin's MCP tools (`servers/mcp-proxy.mjs`); off (hooks only, for your own OpenViking MCP server): the proxy offers no tool and contacts nothing, and the hints (start and recall blocks, the guard's reason) name the tools of `OPENVIKING_MCP_SERVER` instead."
  },
  mcpServer: {
    env: "OPENVIKING_MCP_SERVER",
    type: "string",
    // It goes into text the model reads (the blocks' tool lines, the guard's reason, the tools-off answer): a tool name's shape only (issue 29 item 3).
    shape: {
      pattern: /^(?:mcp__[A-Za-z0-9_-]{1,59}|(?!mcp__)[^\u0000-\u001f\u007f-\u009f<>]{1,64})$/,
      expected: "a server key (1-64 characters, no control character, < or >) or a tool-name prefix mcp__<letters, digits, _ or -> (at most 64 characters)"
    },
    default: "openviking",
    description: "With `OPENVIKING_MCP_ENABLED` off: the key of your own OpenViking MCP server in the host's MCP settings; the hints call its tools `mcp__<key>__<tool>` on both hosts (a value starting with `mcp__` is taken as the tool-name prefix itself)."
  },
  recallLimit: {
    env: "OPENVIKING_RECALL_LIMIT",
    type: "int",
    default: 10,
    min: 1,
    max: 100,
    description: "Most memories injected per prompt."
  },
  scoreThreshold: {
    env: "OPENVIKING_SCORE_THRESHOLD",
    type: "float",
    default: 0.35,
    min: 0,
    max: 1,
    description: "Lowest relevance score a recalled memory may have."
  },
  minQueryLength: {
    env: "OPENVIKING_MIN_QUERY_LENGTH",
    type: "int",
    default: 3,
    min: 1,
    max: 1e3,
    description: "Prompts shorter than this (characters, once private parts are removed) skip recall."
  },
  recallMaxTokens: {
    env: "OPENVIKING_RECALL_MAX_TOKENS",
    type: "int",
    default: 1600,
    min: 64,
    max: 32e3,
    description: "Server-side token budget of the recall block (context search `max_tokens`)."
  },
  recallDedupTurns: {
    env: "OPENVIKING_RECALL_DEDUP_TURNS",
    type: "int",
    default: 5,
    min: 0,
    max: 100,
    description: "Turns during which the server does not repeat a memory it already injected (0: off)."
  },
  recallTokenBudget: {
    env: "OPENVIKING_RECALL_TOKEN_BUDGET",
    type: "int",
    default: 2e3,
    min: 200,
    max: 32e3,
    description: "Token budget of the client-side fallback recall block."
  },
  recallMaxContentChars: {
    env: "OPENVIKING_RECALL_MAX_CONTENT_CHARS",
    type: "int",
    default: 500,
    min: 50,
    max: 2e4,
    description: "Characters kept per memory in the fallback recall block."
  },
  workspacePeer: {
    env: "OPENVIKING_WORKSPACE_PEER",
    type: "bool",
    default: true,
    description: "Give each project its own peer id (by `OPENVIKING_PEER_SOURCE`) when none is named; off: none (named ids still apply); see projects.md."
  },
  peerSource: {
    env: "OPENVIKING_PEER_SOURCE",
    type: "csv",
    default: [],
    description: "How a project's peer id is derived when none is named, as OpenViking's own plugins do (see projects.md): `git` (empty: the `origin` remote, else the repository's path), `cwd` (the working folder's path), `none`, or comma-separated templates over `{git_remote}`, `{git_root}`, `{cwd}`, `{dir}`, `{git_port}` (the first that resolves wins). A workspace's `peer.source` comes after the environment, before ovcli.conf."
  },
  recallPeerScope: {
    env: "OPENVIKING_RECALL_PEER_SCOPE",
    type: "string",
    choices: ["all", "actor"],
    default: "all",
    description: "`all`: other projects' memories may be recalled, penalised; `actor`: only this project's and those of no project."
  },
  recallOtherPeerPenalty: {
    env: "OPENVIKING_RECALL_OTHER_PEER_PENALTY",
    type: "float",
    default: 0.3,
    min: 0,
    max: 1,
    description: "Score taken off another project's memories in recall (`all` scope), so they appear only when strongly relevant."
  },
  recallExcludeUris: {
    env: "OPENVIKING_RECALL_EXCLUDE_URIS",
    type: "csv",
    default: [],
    description: "Comma-separated URIs (a folder URI covers everything below it) that recall never injects."
  },
  recallPrefix: {
    env: "OPENVIKING_RECALL_PREFIX",
    type: "string",
    default: "",
    description: "Opt-in recall: only prompts starting with this (e.g. `?ov`) are recalled for, without it; empty: every prompt."
  },
  profileTokenBudget: {
    env: "OPENVIKING_PROFILE_TOKEN_BUDGET",
    type: "int",
    default: 6e3,
    min: 500,
    max: 64e3,
    description: "Token budget of the session-start profile block."
  },
  resumeContextBudget: {
    env: "OPENVIKING_RESUME_CONTEXT_BUDGET",
    type: "int",
    default: 32e3,
    min: 1024,
    max: 128e3,
    description: "Token budget asked of the server for the archive overview on resume and compact."
  },
  promptDeadlineMs: {
    env: "OPENVIKING_PROMPT_DEADLINE_MS",
    type: "int",
    default: 2 * SECOND,
    min: 200,
    max: 30 * SECOND,
    description: "Whole-stage deadline of recall; past it the prompt goes on without memories."
  },
  startDeadlineMs: {
    env: "OPENVIKING_START_DEADLINE_MS",
    type: "int",
    default: 3 * SECOND,
    min: 200,
    max: 30 * SECOND,
    description: "Whole-stage deadline of the session-start profile injection."
  },
  syncCaptureDeadlineMs: {
    env: "OPENVIKING_SYNC_CAPTURE_DEADLINE_MS",
    type: "int",
    default: 20 * SECOND,
    min: SECOND,
    max: 120 * SECOND,
    description: "Deadline of the synchronous capture before compaction."
  },
  timeoutMs: {
    env: "OPENVIKING_TIMEOUT_MS",
    type: "int",
    default: 15 * SECOND,
    min: SECOND,
    max: 300 * SECOND,
    description: "Per-request timeout of background work (capture worker, replay) and of each MCP tool call."
  },
  commitTokenThreshold: {
    env: "OPENVIKING_COMMIT_TOKEN_THRESHOLD",
    type: "int",
    default: 2e4,
    min: 1e3,
    max: 1e7,
    description: "Pending server tokens that trigger a commit after a turn."
  },
  commitKeepRecentCount: {
    env: "OPENVIKING_COMMIT_KEEP_RECENT_COUNT",
    type: "int",
    default: 10,
    min: 0,
    max: 1e4,
    description: "Newest messages a client-side threshold commit leaves out of the archive. Applies only where the server's commit policy is not used (`OPENVIKING_SERVER_COMMIT_POLICY=false`, or a server without it): the policy always archives everything (DESIGN D19)."
  },
  staleCommitIdleMs: {
    env: "OPENVIKING_STALE_COMMIT_IDLE_MS",
    type: "int",
    default: 30 * 60 * SECOND,
    min: 0,
    max: 7 * 24 * 3600 * SECOND,
    description: "A session start commits another session of the workspace only after this long without transcript growth or capture (a live session is never cut)."
  },
  serverCommitPolicy: {
    env: "OPENVIKING_SERVER_COMMIT_POLICY",
    type: "bool",
    default: true,
    description: "Give each captured session the server's own `auto_commit_policy` (`OPENVIKING_COMMIT_TOKEN_THRESHOLD`, `OPENVIKING_SERVER_COMMIT_MESSAGE_THRESHOLD`, `OPENVIKING_SERVER_COMMIT_IDLE_SECONDS`, keep 0); servers without it keep the client-side rules."
  },
  serverCommitMessageThreshold: {
    env: "OPENVIKING_SERVER_COMMIT_MESSAGE_THRESHOLD",
    type: "int",
    default: 200,
    min: 0,
    max: 1e3,
    description: "Live messages after which the server commits a session by itself (its policy; 0: no message threshold)."
  },
  captureRetentionDays: {
    env: "OPENVIKING_CAPTURE_RETENTION_DAYS",
    type: "int",
    default: 90,
    min: 1,
    max: 3650,
    description: "Days a committed, idle session's capture state is kept while its transcript exists (then it goes; a session resumed later is captured again from its start). Gone at once when the transcript is."
  },
  serverCommitIdleSeconds: {
    env: "OPENVIKING_SERVER_COMMIT_IDLE_SECONDS",
    type: "int",
    default: 1800,
    min: 0,
    max: 604800,
    description: "Idle seconds after which the server commits a session by itself (honoured when the server's idle scanner is on; 0: none; OpenViking takes 0 or at least 300, so less is sent as 300)."
  },
  captureAssistantTurns: {
    env: "OPENVIKING_CAPTURE_ASSISTANT_TURNS",
    type: "bool",
    failClosed: false,
    default: true,
    description: "Capture the assistant's turns too, not only the user's."
  },
  captureToolMaxChars: {
    env: "OPENVIKING_CAPTURE_TOOL_MAX_CHARS",
    type: "int",
    default: 1e6,
    min: 1e3,
    max: 1e6,
    description: "Characters of a tool output kept when capturing (the server externalises big ones)."
  },
  bypassSession: {
    env: "OPENVIKING_BYPASS_SESSION",
    type: "bool",
    failClosed: true,
    default: false,
    description: "Leave every session (and the MCP tools) alone: nothing is sent, as with memory off."
  },
  bypassPatterns: {
    env: "OPENVIKING_BYPASS_SESSION_PATTERNS",
    type: "csv",
    default: [],
    description: "Comma-separated globs (`*`, `**`; `dir/**` is `dir` and everything below it, no `~`); a session whose id or folder matches is left alone. The MCP tools match their folder only (they never learn the session)."
  },
  pendingReplayLimit: {
    env: "OPENVIKING_PENDING_REPLAY_LIMIT",
    type: "int",
    default: 50,
    min: 0,
    max: 1e3,
    description: "Queued writes a session start replays (0: none there); a capture, `requeue-dead` or replay run takes at least 100."
  },
  pendingReplayBudgetMs: {
    env: "OPENVIKING_PENDING_REPLAY_BUDGET_MS",
    type: "int",
    default: 1500,
    min: 0,
    max: 60 * SECOND,
    description: "Time a session start's replay may spend (inside the start deadline) before it stops."
  },
  pendingMaxRetries: {
    env: "OPENVIKING_PENDING_MAX_RETRIES",
    type: "int",
    default: 3,
    min: 1,
    max: 100,
    description: "Refusals by the server (a 4xx other than 408, 429 and a retryable 409) before a queued write moves to the dead-letter folder (with the reason; never deleted silently). No answer, a timeout or a 5xx never counts."
  },
  pendingTtlDays: {
    env: "OPENVIKING_PENDING_TTL_DAYS",
    type: "int",
    default: 7,
    min: 1,
    max: 365,
    description: "Age (days) after which a queued write moves to the dead-letter folder."
  },
  lockTimeoutMs: {
    env: "OPENVIKING_LOCK_TIMEOUT_MS",
    type: "int",
    default: SECOND,
    min: 0,
    max: 60 * SECOND,
    description: "Longest wait for a lock another process holds: a session's capture lock during a session start's replay (past it the entry waits for a later run) and the queue's lock when queueing (past it the write is queued anyway)."
  },
  resident: {
    env: "OPENVIKING_RESIDENT",
    type: "bool",
    default: true,
    description: "Keep the resident helper that answers prompt hooks (see README: The resident helper); off: each prompt hook recalls by itself (always so on Windows)."
  },
  residentIdleMs: {
    env: "OPENVIKING_RESIDENT_IDLE_MS",
    type: "int",
    default: 15 * 60 * SECOND,
    min: 100,
    max: 12 * 3600 * SECOND,
    description: "The resident helper leaves after this long without a prompt."
  },
  module: {
    env: "OPENVIKING_MODULE",
    type: "bool",
    default: true,
    description: "The in-process hooks module on Claude Code 2.1.328+ (the only host that loads it; see Hosts and versions); off: it only passes every event on and the hook commands do everything, as on CodeBuddy. The module reads this variable (from the environment or `~/.claude/settings.json` `env`), not ovcli.conf."
  },
  debug: {
    env: "OPENVIKING_DEBUG",
    type: "bool",
    default: false,
    description: "Write a JSON-lines debug log (hooks, workers, resident, doctor; the MCP tools log to the host's MCP log)."
  },
  debugLogPath: {
    env: "OPENVIKING_DEBUG_LOG",
    type: "path",
    default: DEFAULT_DEBUG_LOG_PATH,
    description: "Where the debug log goes; `~` is your home directory, and a relative path is taken from it."
  }
};
function listKnobs() {
  return Object.entries(KNOB_TABLE).map(([key, knob]) => ({ ...knob, key }));
}

// src/util/nearest.ts
function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
      );
    }
    previous = current;
  }
  return previous[b.length];
}
function nearestName(wanted, names, normalize = (name) => name) {
  const target = normalize(wanted);
  let best;
  for (const name of names) {
    const distance = editDistance(target, normalize(name));
    if (best === void 0 || distance < best.distance) best = { name, distance };
  }
  return best !== void 0 && best.distance <= Math.max(2, Math.floor(target.length / 4)) ? best.name : void 0;
}

// src/config/settings.ts
function resolveSettings(input) {
  const warnings = input.file ? unknownFields(input.file) : [];
  const settings = {};
  const sources = {};
  const failedClosed = {};
  for (const knob of listKnobs()) {
    const resolved = resolveKnob(knob, input, warnings);
    settings[knob.key] = resolved.value;
    sources[knob.key] = resolved.source;
    if (resolved.unclear !== void 0) failedClosed[knob.key] = resolved.unclear;
  }
  return {
    settings,
    sources,
    warnings,
    failedClosed
  };
}
function defaultValue(knob, homeDir) {
  if (knob.type === "path") return expandHome(knob.default, homeDir);
  if (knob.type === "csv") return [...knob.default];
  return knob.default;
}
function resolveKnob(knob, input, warnings) {
  const candidates = [
    [`env:${knob.env}`, input.env[knob.env], `${knob.env}=${shownValue(input.env[knob.env])}`]
  ];
  if (input.file)
    candidates.push([
      `file:${input.file.shownAs}#plugin.codebuddy.${knob.key}`,
      input.file.values[knob.key],
      `plugin.codebuddy.${knob.key}: ${shownValue(input.file.values[knob.key])} in ${input.file.shownAs}`
    ]);
  for (const [source, raw, setting] of candidates) {
    if (raw === void 0 || raw === null || typeof raw === "string" && !raw.trim()) continue;
    const parsed = parseKnobValue(knob, raw, input.homeDir);
    if (parsed.ok && parsed.unclear === true) {
      warnings.push(
        `${source}: ${shownValue(raw)} is not a word a switch understands (${SWITCH_WORDS_TEXT}); ${knob.env} is a privacy switch, so it reads as ${String(parsed.value)} (the value that sends less) until it is one of them`
      );
      return { value: parsed.value, source, unclear: setting };
    }
    if (parsed.ok) return { value: clamp(knob, parsed.value, source, warnings), source };
    warnings.push(`${source}: ${parsed.problem}; ignoring it`);
  }
  return { value: defaultValue(knob, input.homeDir), source: "default" };
}
function shownValue(raw) {
  const text2 = JSON.stringify(raw) ?? String(raw);
  return text2.length > 40 ? `${text2.slice(0, 40)}\u2026` : text2;
}
function parseKnobValue(knob, raw, homeDir) {
  switch (knob.type) {
    case "bool":
      return parseBool(knob, raw);
    case "int":
    case "float":
      return parseNumber(knob, raw);
    case "string":
    case "path":
      return parseText(knob, raw, homeDir);
    case "csv":
      return parseCsv(raw);
  }
}
function parseBool(knob, raw) {
  if (typeof raw === "boolean") return { ok: true, value: raw };
  const value = parseSwitch(typeof raw === "string" || typeof raw === "number" ? String(raw) : void 0);
  if (value !== void 0) return { ok: true, value };
  if (knob.failClosed !== void 0) return { ok: true, value: knob.failClosed, unclear: true };
  return { ok: false, problem: `expected true or false (${SWITCH_WORDS_TEXT}), got ${shownValue(raw)}` };
}
function parseText(knob, raw, homeDir) {
  if (typeof raw !== "string") return { ok: false, problem: `expected a string, got ${JSON.stringify(raw)}` };
  const text2 = raw.trim();
  if (knob.choices !== void 0 && !knob.choices.includes(text2.toLowerCase()))
    return { ok: false, problem: `expected one of ${knob.choices.join(", ")}, got ${shownValue(raw)}` };
  if (knob.choices !== void 0) return { ok: true, value: text2.toLowerCase() };
  if (knob.shape !== void 0 && !knob.shape.pattern.test(text2))
    return { ok: false, problem: `expected ${knob.shape.expected}, got ${shownValue(raw)}` };
  return { ok: true, value: knob.type === "path" ? expandHome(text2, homeDir) : text2 };
}
function parseCsv(raw) {
  if (typeof raw === "string") return { ok: true, value: splitList(raw) };
  if (Array.isArray(raw) && raw.every((item) => typeof item === "string"))
    return { ok: true, value: raw.map((item) => item.trim()).filter(Boolean) };
  return {
    ok: false,
    problem: `expected a comma-separated string or a list of strings, got ${JSON.stringify(raw)}`
  };
}
function parseNumber(knob, raw) {
  const value = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value)) return { ok: false, problem: `expected a number, got ${JSON.stringify(raw)}` };
  if (knob.type === "int" && !Number.isInteger(value))
    return { ok: false, problem: `expected a whole number, got ${JSON.stringify(raw)}` };
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
function unknownFields(file) {
  const keys = listKnobs().map((knob) => knob.key);
  return Object.keys(file.values).filter((field) => !keys.includes(field)).map((field) => {
    const near = nearestKnob(field, keys);
    return `${file.shownAs}: plugin.codebuddy.${field} is not a setting${near ? `; did you mean ${near}?` : "."} Ignoring it (the fields are listed in docs/settings.md)`;
  });
}
function nearestKnob(field, keys = listKnobs().map((knob) => knob.key)) {
  const plain = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
  const wanted = plain(field);
  const byEnv = listKnobs().find(
    (knob) => plain(knob.env) === wanted || plain(knob.env.replace(/^OPENVIKING_/, "")) === wanted
  );
  if (byEnv !== void 0) return byEnv.key;
  return nearestName(field, keys, plain);
}
function splitList(text2) {
  return text2.split(",").map((item) => item.trim()).filter(Boolean);
}

// src/config/pluginSettings.ts
function pluginSection(cliFile, homeDir) {
  const plugin = cliFile.value?.["plugin"];
  const section2 = isRecord(plugin) ? plugin["codebuddy"] : void 0;
  const shownAs = displayPath(cliFile.path, homeDir);
  if (section2 !== void 0 && !isRecord(section2))
    return { warnings: [`${shownAs}: plugin.codebuddy should be an object; ignoring it`] };
  return isRecord(section2) ? { file: { values: section2, shownAs }, warnings: [] } : { warnings: [] };
}

// src/config/load.ts
function loadPluginConfig(input) {
  try {
    return resolveConfig(input);
  } catch (error) {
    const reason = errorMessage(error);
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
      dataDir: fallbackDataDir(input),
      warnings: [`configuration could not be loaded (${reason}); using defaults`]
    };
  }
}
function fallbackDataDir(input) {
  try {
    return resolveDataDir(input.env, input.homeDir);
  } catch {
    return resolveDataDir({}, input.homeDir);
  }
}
function resolveConfig({
  env,
  homeDir,
  readFile = readSmallTextFile,
  readStoredOptions
}) {
  const { credentials, warnings, cliFile } = resolveCredentials({
    env,
    homeDir,
    readFile,
    ...readStoredOptions !== void 0 ? { readStoredOptions } : {}
  });
  const { file, warnings: sectionWarnings } = pluginSection(cliFile, homeDir);
  const settings = resolveSettings({ env, homeDir, ...file ? { file } : {} });
  return {
    credentials,
    settings: settings.settings,
    settingSources: settings.sources,
    dataDir: resolveDataDir(env, homeDir),
    warnings: [...warnings, ...sectionWarnings, ...settings.warnings],
    ...Object.keys(settings.failedClosed).length > 0 ? { failedClosed: settings.failedClosed } : {}
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
  keywords: ["memory", "openviking", "context", "recall", "mcp"],
  mcpServers: "./servers/mcp.json",
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
import { join as join12 } from "node:path";

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
    void snapshots.update(url, { tools });
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
        (unsupported ? log.debug : log.warn)(
          `${request.method} failed upstream; serving ${remembered.length ? "the remembered list" : "an empty list"}`,
          {
            error: describeError(error)
          }
        );
        if (isTools) served = { json: JSON.stringify(remembered), fallback: true };
        return fallbackListing(field, remembered);
      }
    },
    onReconnected() {
      if (served?.fallback) void relist();
    },
    async answerLocally(request, field) {
      const isTools = request.method === "tools/list";
      const remembered = isTools ? (await snapshots.load(options.mcpUrl()))?.tools ?? [] : [];
      if (isTools) served = { json: JSON.stringify(remembered), fallback: true };
      return fallbackListing(field, remembered);
    }
  };
}

// src/mcp/hostLink.ts
var STDIN_END_DRAIN_MS = 1e3;
var HostLink = class {
  constructor(stdout, log) {
    this.stdout = stdout;
    this.log = log;
    this.closed = new Promise((resolve5) => this.resolveClosed = resolve5);
    stdout.once("error", () => void this.close());
  }
  stdout;
  log;
  /** Resolves once the link has closed. */
  closed;
  resolveClosed;
  closing = false;
  draining = false;
  handlers;
  inFlight = /* @__PURE__ */ new Map();
  /** Requests still being answered (stdin's end waits for them, briefly). */
  pending = /* @__PURE__ */ new Set();
  /** Sends a notification to the host (the upstream's, or the proxy's own list-changed). */
  notify(notification) {
    this.write(notificationLine(notification));
  }
  /** Reads the host's messages from `stdin` and answers them with `handlers`. */
  listen(stdin, handlers) {
    this.handlers = handlers;
    const feed = createLineSplitter((line) => this.onLine(line));
    stdin.on("data", (chunk) => feed(chunk));
    stdin.once("end", () => void this.drainThenClose());
    stdin.once("close", () => void this.drainThenClose());
    stdin.once("error", () => void this.close());
  }
  /** Abandons what is in flight and closes (idempotent). */
  async close() {
    if (this.closing) return this.closed;
    this.closing = true;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    await this.handlers?.onClose();
    this.resolveClosed();
    return this.closed;
  }
  write(line) {
    if (!this.closing) this.stdout.write(line);
  }
  onLine(line) {
    const message = parseMessage(line);
    switch (message.kind) {
      case "request": {
        const handling = this.answerRequest(message.request);
        this.pending.add(handling);
        void handling.finally(() => this.pending.delete(handling));
        return;
      }
      case "notification":
        this.onNotification(message.notification);
        return;
      case "invalid":
        this.write(errorLine(message.id, message.error));
        return;
      case "response":
        return;
    }
  }
  async answerRequest(request) {
    const handlers = this.handlers;
    if (handlers === void 0) return;
    const controller = new AbortController();
    this.inFlight.set(request.id, controller);
    try {
      const result = await handlers.answer(request, controller.signal);
      if (!controller.signal.aborted) this.write(resultLine(request.id, result));
    } catch (error) {
      if (!controller.signal.aborted) this.write(errorLine(request.id, handlers.toRpcError(error)));
    } finally {
      if (this.inFlight.get(request.id) === controller) this.inFlight.delete(request.id);
    }
  }
  onNotification(notification) {
    if (notification.method === "notifications/cancelled") {
      const id = notification.params?.requestId;
      if (typeof id === "string" || typeof id === "number") this.inFlight.get(id)?.abort();
      return;
    }
    this.log.debug("host notification", { method: notification.method });
  }
  /** stdin ended: answer what was already asked (a script may pipe requests and EOF), then close. */
  async drainThenClose() {
    if (this.draining) return;
    this.draining = true;
    const budget = new Promise((resolve5) => setTimeout(resolve5, STDIN_END_DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...this.pending]), budget]);
    await this.close();
  }
};

// src/mcp/initialize.ts
var SUPPORTED_PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07"
];
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

// src/util/printable.ts
var UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/g;
var PLAIN = /^[\t\n\u0020-\u007e]*$/;
function printable(text2) {
  return PLAIN.test(text2) ? text2 : text2.replace(UNPRINTABLE, "");
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
      line = JSON.stringify({
        ts: new Date(options.now()).toISOString(),
        level,
        source: "openviking-mcp-proxy",
        message,
        ...fields
      });
    } catch {
      line = JSON.stringify({
        ts: new Date(options.now()).toISOString(),
        level,
        source: "openviking-mcp-proxy",
        message
      });
    }
    options.write(`${printable(redact(line, options.secrets()))}
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

// src/transcript/redactionMarker.ts
var OPENING = "[REDACTED:";
function redactionMarker(kind) {
  return `${OPENING}${kind}]`;
}
var MARKER_IN_TEXT = /[ \t]*\[REDACTED:[a-z0-9-]+\][ \t]*/g;
function withoutMarkers(text2) {
  return text2.includes(OPENING) ? text2.replace(MARKER_IN_TEXT, " ") : text2;
}
function isRedacted(value) {
  return /^\[REDACTED/i.test(value);
}

// src/transcript/secretRules.ts
var B = String.raw`(?<![A-Za-z0-9_-])`;
var TOKEN_RULES = [
  // AI providers. Anthropic before OpenAI: both start with `sk-`.
  { kind: "anthropic-key", keywords: ["sk-ant-"], source: String.raw`${B}sk-ant-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*` },
  {
    // `sk-proj-…`/`sk-svcacct-…` may hold `-` and `_`; a bare `sk-` key is one alphanumeric run (not `sk-learn-…`).
    kind: "openai-key",
    keywords: ["sk-"],
    source: String.raw`${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|[A-Za-z0-9]{20}[A-Za-z0-9]*(?![A-Za-z0-9_-]))`
  },
  { kind: "groq-key", keywords: ["gsk_"], source: String.raw`${B}gsk_[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { kind: "xai-key", keywords: ["xai-"], source: String.raw`${B}xai-[A-Za-z0-9]{60}[A-Za-z0-9]*` },
  { kind: "perplexity-key", keywords: ["pplx-"], source: String.raw`${B}pplx-[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { kind: "replicate-token", keywords: ["r8_"], source: String.raw`${B}r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])` },
  { kind: "huggingface-token", keywords: ["hf_"], source: String.raw`${B}hf_[A-Za-z0-9]{30}[A-Za-z0-9]*` },
  // Payments.
  {
    kind: "stripe-key",
    keywords: ["_live_", "_test_", "_prod_"],
    source: String.raw`${B}[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{10}[A-Za-z0-9]*`
  },
  {
    kind: "stripe-webhook-secret",
    keywords: ["whsec_"],
    source: String.raw`${B}whsec_[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*`
  },
  {
    kind: "square-token",
    keywords: ["sq0atp-", "sq0csp-"],
    source: String.raw`${B}sq0(?:atp|csp)-[A-Za-z0-9_-]{22}[A-Za-z0-9_-]*`
  },
  // Clouds.
  {
    kind: "aws-access-key",
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    source: String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`
  },
  {
    kind: "aws-session-token",
    keywords: ["iqojb3jpz2lu", "fwogzxivyxdz", "aqodyxdz"],
    source: String.raw`(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|AQoDYXdz)[A-Za-z0-9+/=]{20}[A-Za-z0-9+/=]*`
  },
  {
    kind: "aws-secret-key",
    keywords: ["aws_secret_access_key", "secretaccesskey"],
    source: String.raw`((?:aws_secret_access_key|SecretAccessKey)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    flags: "i",
    keepPrefix: true
  },
  { kind: "google-api-key", keywords: ["aiza"], source: String.raw`${B}AIza[A-Za-z0-9_-]{35}` },
  {
    kind: "google-oauth-secret",
    keywords: ["gocspx-"],
    source: String.raw`${B}GOCSPX-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  { kind: "google-oauth-token", keywords: ["ya29."], source: String.raw`${B}ya29\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*` },
  {
    kind: "google-refresh-token",
    keywords: ["1//0"],
    source: String.raw`(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{30}[A-Za-z0-9_-]*`
  },
  {
    kind: "azure-client-secret",
    keywords: ["q~"],
    source: String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`
  },
  { kind: "digitalocean-token", keywords: ["_v1_"], source: String.raw`${B}do[por]_v1_[a-f0-9]{64}` },
  { kind: "databricks-token", keywords: ["dapi"], source: String.raw`${B}dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])` },
  { kind: "supabase-token", keywords: ["sbp_"], source: String.raw`${B}sbp_[a-f0-9]{40}` },
  // Code hosting and registries.
  {
    kind: "github-token",
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    source: String.raw`${B}gh[pousr]_[A-Za-z0-9]{36}[A-Za-z0-9]*`
  },
  { kind: "github-token", keywords: ["github_pat_"], source: String.raw`${B}github_pat_[A-Za-z0-9_]{22}[A-Za-z0-9_]*` },
  {
    kind: "gitlab-token",
    keywords: ["glpat-", "glptt-", "gldt-", "glrt-", "glsoat-", "glcbt-", "glft-", "glimt-", "gloas-", "glagent-"],
    source: String.raw`${B}gl(?:pat|ptt|dt|rt|soat|cbt|ft|imt|oas|agent)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  { kind: "npm-token", keywords: ["npm_"], source: String.raw`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])` },
  {
    kind: "pypi-token",
    keywords: ["pypi-ageicHlwaS5vcmc".toLowerCase()],
    source: String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    kind: "shopify-token",
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    source: String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])`
  },
  { kind: "docker-token", keywords: ["dckr_pat_"], source: String.raw`dckr_pat_[A-Za-z0-9_-]{27}[A-Za-z0-9_-]*` },
  { kind: "atlassian-token", keywords: ["atatt3"], source: String.raw`ATATT3[A-Za-z0-9_=-]{60}[A-Za-z0-9_=-]*` },
  { kind: "linear-key", keywords: ["lin_api_"], source: String.raw`lin_api_[A-Za-z0-9]{40}` },
  { kind: "postman-key", keywords: ["pmak-"], source: String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}` },
  {
    kind: "terraform-token",
    keywords: [".atlasv1."],
    source: String.raw`${B}[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`
  },
  // Chat, mail, monitoring, secrets managers.
  {
    kind: "slack-token",
    keywords: ["xox"],
    source: String.raw`(?<![A-Za-z0-9-])xox[abposre]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`
  },
  {
    kind: "slack-token",
    keywords: ["xapp-"],
    source: String.raw`(?<![A-Za-z0-9-])xapp-[0-9]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`
  },
  {
    kind: "slack-webhook",
    keywords: ["hooks.slack.com"],
    source: String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/+-]{8}[A-Za-z0-9_/+-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    kind: "discord-webhook",
    keywords: ["/api/webhooks/"],
    source: String.raw`(discord(?:app)?\.com/api/webhooks/)[0-9]{5,30}/[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    kind: "telegram-bot-token",
    keywords: [":aa"],
    source: String.raw`(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`
  },
  {
    kind: "sendgrid-key",
    keywords: ["sg."],
    source: String.raw`(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,50}`
  },
  { kind: "mailgun-key", keywords: ["key-"], source: String.raw`${B}key-[a-f0-9]{32}(?![A-Za-z0-9])` },
  {
    kind: "mailchimp-key",
    keywords: ["-us"],
    source: String.raw`(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])`
  },
  { kind: "twilio-key", keywords: ["sk"], source: String.raw`(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])` },
  {
    kind: "sentry-token",
    keywords: ["sntrys_", "sntryu_", "sntrus_"],
    source: String.raw`${B}sntr(?:ys|yu|us)_[A-Za-z0-9+/=_-]{30}[A-Za-z0-9+/=_-]*`
  },
  {
    kind: "grafana-token",
    keywords: ["glsa_", "glc_"],
    source: String.raw`${B}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32}[A-Za-z0-9+/]*={0,2})`
  },
  { kind: "newrelic-key", keywords: ["nrak-"], source: String.raw`NRAK-[A-Z0-9]{27}` },
  {
    kind: "vault-token",
    keywords: ["hvs.", "hvb."],
    source: String.raw`(?<![A-Za-z0-9_.-])hv[sb]\.[A-Za-z0-9_-]{24}[A-Za-z0-9_-]*`
  },
  {
    // Vault's legacy service tokens: `s.` and 24 base62 characters (mixed case and a digit: not a word after `s.`).
    kind: "vault-token",
    keywords: ["s."],
    source: String.raw`(?<![A-Za-z0-9_.-])s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])`,
    keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match.slice(2)) && /[0-9]/.test(match))
  },
  {
    kind: "doppler-token",
    keywords: ["dp."],
    source: String.raw`(?<![A-Za-z0-9_.-])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_]{40,44}`,
    flags: "i"
  },
  { kind: "1password-token", keywords: ["ops_eyj"], source: String.raw`ops_eyJ[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}` },
  { kind: "age-secret-key", keywords: ["age-secret-key-1"], source: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}` },
  // Generic shapes.
  {
    kind: "jwt",
    keywords: ["eyj"],
    source: String.raw`${B}eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*`
  },
  {
    kind: "bearer-token",
    keywords: ["bearer"],
    source: String.raw`\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*`,
    flags: "i",
    keepPrefix: true
  },
  {
    kind: "authorization",
    keywords: ["authorization"],
    source: String.raw`(authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:basic|token|bot|digest|negotiate|ntlm)[ \t]{1,8})[A-Za-z0-9._~+/=-]{6}[A-Za-z0-9._~+/=-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    // `scheme://user:password@host`; the user may be empty (`redis://:pw@host`) and the password may hold `/` (not `:`).
    kind: "url-password",
    keywords: ["://"],
    source: String.raw`(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}://[^\s:/@]{0,128}:)[^\s:@]{1,256}(?=@)`,
    flags: "i",
    keepPrefix: true,
    keep: looksLikePortAndPath
  },
  {
    // `curl -u user:pass`, `--user user:pass` (not `docker run -u 1000:1000`).
    kind: "password",
    keywords: ["-u", "--user"],
    source: String.raw`((?:^|[ \t])(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'@]{1,128}:)[^\s"'@]{1,256}`,
    flags: "m",
    keepPrefix: true,
    keep: (match) => /[ \t=]["']?[0-9]+:[0-9]+$/.test(match)
  },
  {
    // `mysql -u root -pS3cret db` (the password is glued to -p; `-p` alone prompts).
    kind: "password",
    keywords: ["mysql", "mariadb"],
    source: String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-p)[^\s-][^\s]*`,
    keepPrefix: true
  },
  {
    kind: "password",
    keywords: ["sshpass"],
    source: String.raw`(\bsshpass[ \t]{1,8}-p[ \t]{0,8}["']?)[^\s"']{1,256}`,
    keepPrefix: true
  },
  // `redis-cli -h cache -a S3cret` (`-a` takes the password; `--pass` is the flag rule below).
  {
    kind: "password",
    keywords: ["redis-cli"],
    source: String.raw`(\bredis-cli\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-a[ \t]{1,4}["']?)[^\s"'-][^\s"']{0,255}`,
    keepPrefix: true
  },
  {
    // `.netrc`: `machine host login alice password s3cret`, on one line or several.
    kind: "password",
    keywords: ["machine"],
    source: String.raw`(\bmachine[ \t]{1,8}[^\s]{1,253}(?:[ \t\r\n]{1,20}(?:login|account|port)[ \t]{1,8}[^\s]{1,256}){0,3}[ \t\r\n]{1,20}password[ \t]{1,8})[^\s]{1,256}`,
    keepPrefix: true
  },
  {
    // Azure DevOps and other personal access tokens in upper-case names: `AZURE_DEVOPS_EXT_PAT=…`, `ADO_PAT: …` (`pat` alone in code is a pattern).
    kind: "token",
    keywords: ["_pat"],
    source: String.raw`((?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,60}_PAT["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[^\s"'$<{][^\s"']{7,255}`,
    keepPrefix: true
  },
  {
    // `.pgpass` lines `host:port:database:user:password` (port a number or `*`); gated by the usual ports or the file's name.
    kind: "password",
    keywords: ["pgpass", ":5432:", ":5433:", ":6432:", ":*:"],
    source: String.raw`^((?:[^\s:]{1,253}|\*):(?:[0-9]{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:)[^\s]{1,256}$`,
    flags: "m",
    keepPrefix: true
  },
  {
    // Docker's `~/.docker/config.json`: `"auths": {"registry": {"auth": "<base64 user:password>"}}`.
    kind: "docker-auth",
    keywords: ['"auth"'],
    source: String.raw`("auth"[ \t]{0,8}:[ \t]{0,8}")[A-Za-z0-9+/]{8}[A-Za-z0-9+/]*={0,2}(?=")`,
    keepPrefix: true
  },
  {
    // `Cookie: session=…; csrftoken=…` and `Set-Cookie:` in headers and curl output: the values.
    kind: "cookie",
    keywords: ["cookie"],
    source: String.raw`(\b(?:set-)?cookie[ \t]{0,4}:[ \t]{0,4})(?=[^\s=;"']{1,128}=)[^\r\n"']{1,4096}`,
    flags: "i",
    keepPrefix: true
  },
  {
    // Azure SAS (`…?sv=…&sig=<base64, URL-encoded>`), also inside `SharedAccessSignature=` connection strings.
    kind: "azure-sas",
    keywords: ["sig="],
    source: String.raw`([?&;]sig=)[A-Za-z0-9%+/=]{16}[A-Za-z0-9%+/=]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    // PuTTY `.ppk`: the lines after `Private-Lines: N` (the `Public-Lines` stay).
    kind: "private-key",
    keywords: ["private-lines"],
    source: String.raw`(Private-Lines:[ \t]{0,4}[0-9]{1,3}[ \t]{0,4}\r?\n)(?:[A-Za-z0-9+/=]{1,128}\r?\n){0,63}[A-Za-z0-9+/=]{1,128}(?=\r?\n|$)`,
    keepPrefix: true
  },
  {
    // A PEM private key in base64 (kubeconfig `client-key-data`, Kubernetes secrets): `-----BEGIN <kind> PRIVATE KEY` encoded.
    kind: "private-key",
    keywords: ["ls0tls1crudjtib"],
    source: String.raw`LS0tLS1CRUdJTiB(?:SU0EgUFJJVkFURSBLRVkt|QUklWQVRFIEtFWS0t|FQyBQUklWQVRFIEtFWS0t|PUEVOU1NIIFBSSVZBVEUgS0VZLS0t|EU0EgUFJJVkFURSBLRVkt|FTkNSWVBURUQgUFJJVkFURSBLRVkt|QR1AgUFJJVkFURSBLRVkgQkxPQ0st)[A-Za-z0-9+/=]*`
  },
  {
    // `--password hunter2`, `--api-key abc`, `redis-cli --pass pw` (the `--password=…` form is an assignment, secretNames.ts).
    kind: "password",
    keywords: ["--"],
    source: String.raw`((?:^|[ \t])--(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|passphrase|pass|token|secret|api-key|apikey|access-key|secret-key)[ \t]{1,8}["']?)[^\s"'-][^\s"']{0,255}`,
    flags: "im",
    keepPrefix: true
  }
];
function looksLikePortAndPath(match, after) {
  const authority = match.slice(match.indexOf("://") + 3);
  if (!/^[^:]*:[0-9]{1,5}\//.test(authority)) return false;
  const beforeColon = authority.slice(0, authority.indexOf(":"));
  const hostLike = beforeColon.includes(".") || /^localhost$/i.test(beforeColon) || /^\[/.test(beforeColon);
  const credentialsFollowed = /^@(?:localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)(?:[:/?#\s]|$)/i.test(after);
  return hostLike && !credentialsFollowed;
}
var AWS_BARE_SECRET = {
  kind: "aws-secret-key",
  keywords: ["akia", "asia", "aws"],
  source: String.raw`\b[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
  keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match) && /[0-9/+]/.test(match))
};

// src/transcript/secretNames.ts
var STRONG_WORDS = /* @__PURE__ */ new Set([
  "password",
  "passwd",
  "passphrase",
  "pass",
  "pwd",
  "secret",
  "secrets",
  "token",
  "apikey",
  "credential",
  "credentials",
  "accesskey",
  "secretkey",
  "privatekey",
  "authtoken",
  "accesstoken",
  "refreshtoken",
  "sessiontoken",
  "clientsecret",
  "connectionstring"
]);
var GLUED_SUFFIX = /(?:password|passwd|passphrase|secret|token|apikey)$/;
var KEY_QUALIFIERS = /* @__PURE__ */ new Set([
  "api",
  "access",
  "secret",
  "private",
  "account",
  "auth",
  "client",
  "encryption",
  "signing",
  "master",
  "shared",
  "app",
  "service",
  "license",
  "subscription",
  "storage",
  "admin",
  "session",
  "consumer",
  "webhook",
  "hmac",
  "jwt"
]);
var kindCache = /* @__PURE__ */ new Map();
var KIND_CACHE_SIZE = 512;
function credentialNameKind(name) {
  if (name.length > 64) return void 0;
  if (kindCache.has(name)) return kindCache.get(name);
  if (kindCache.size >= KIND_CACHE_SIZE) kindCache.clear();
  const kind = kindOfName(name);
  kindCache.set(name, kind);
  return kind;
}
function kindOfName(name) {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== "");
  const last = words.at(-1);
  if (last === void 0) return void 0;
  if (last === "key") return KEY_QUALIFIERS.has(words.at(-2) ?? "") ? kindOfWords(words.at(-2) ?? "", last) : void 0;
  if (last === "auth") return name.startsWith("_") ? "token" : void 0;
  if (last === "string") return words.at(-2) === "connection" && words.length > 2 ? "secret" : void 0;
  if (last === "pat") return words.length > 1 && /^[A-Z0-9_]+$/.test(name) ? "token" : void 0;
  if (STRONG_WORDS.has(last)) return kindOfWords("", last);
  const glued = GLUED_SUFFIX.exec(last)?.[0];
  return glued === void 0 ? void 0 : kindOfWords("", glued);
}
function kindOfWords(qualifier, last) {
  if (last.startsWith("pass") || last === "pwd") return "password";
  if (last === "key") return qualifier === "api" ? "api-key" : qualifier === "private" ? "private-key" : "secret";
  if (last.endsWith("token")) return "token";
  if (last === "apikey") return "api-key";
  if (last === "privatekey") return "private-key";
  return "secret";
}
var CREDENTIAL_WORDS = [
  "pass",
  "pwd",
  "secret",
  "token",
  "key",
  "auth",
  "credential",
  "connectionstring"
];
var CANDIDATE_SOURCE = String.raw`(${CREDENTIAL_WORDS.join("|")})([A-Za-z0-9_.-]{0,40})(["']?)([ \t]{0,3})((?::=|=>|[:=])[ \t]{0,3})(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"'\x60&;,<>()[\]{}|]{1,512}))`;
function isNameChar(code) {
  return code >= 97 && code <= 122 || code >= 65 && code <= 90 || code >= 48 && code <= 57 || code === 95 || code === 46 || code === 45;
}
var MAX_NAME = 64;
var MAX_YAML_VALUE = 512;
var candidatePattern;
var PLACEHOLDER = /^(?:[$%{<@]|\*{3,}$|x{3,}$|\.\.\.|…|null$|none$|nil$|undefined$|true$|false$|your[_-])|\{\{|\$\{|process\.env|os\.environ|getenv/i;
var ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
var MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
var IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
var TYPE_EXPR = String.raw`(?:string|number|boolean|bool|any|unknown|never|void|object|str|int|float|bytes|char|optional|secretstr|[A-Z][A-Za-z0-9]*)(?:\[[\w., |[\]]{0,100}\])?(?:\[\])?`;
var TYPE_LINE = new RegExp(
  String.raw`^${TYPE_EXPR}(?:[ \t]*\|[ \t]*${TYPE_EXPR}){0,8}\??(?:[ \t]*=[ \t]*(?:None|null|nil|undefined|[A-Za-z_$][\w$.]{0,100}(?:\(\))?))?[ \t]*[,;]?(?:[ \t]*\})?$`
);
var PROSE = /^\S+(?:\s+\S+){3,}$|\s\S+[?.!]$/;
var UPPER_NAME = /^[A-Z0-9_.-]*[A-Z][A-Z0-9_.-]*$/;
var CODE_FOLLOWER = /* @__PURE__ */ new Set([",", ")", ";", "}", "]"]);
var HEADER_NAME = /^(?:x-[A-Za-z0-9-]+|api-key|private-token|[A-Za-z]+-(?:key|token|secret))$/i;
function bareIsSecret(name, spaceBefore, separator, value, after) {
  if (after === "(" || after === "[") return false;
  if (HEADER_NAME.test(name)) return value.length >= 4;
  const upper = UPPER_NAME.test(name);
  const sep4 = separator.trim();
  if (sep4 === "=" && spaceBefore === "") {
    if (upper || !CODE_FOLLOWER.has(after)) return true;
    return !(IDENTIFIER.test(value) || MEMBER_CHAIN.test(value));
  }
  if (MEMBER_CHAIN.test(value)) return false;
  return upper && !IDENTIFIER.test(value);
}
function yamlValueLength(text2, start, lineEnd, upper) {
  if (lineEnd - start > MAX_YAML_VALUE) return 0;
  const line = text2.slice(start, lineEnd).replace(/[ \t]+#.*$/, "").trimEnd();
  if (line === "" || PLACEHOLDER.test(line)) return 0;
  if (!upper && (TYPE_LINE.test(line) || /[,;{(]$|=>| \| |</.test(line) || MEMBER_CHAIN.test(line) || PROSE.test(line)))
    return 0;
  return line.length;
}
function valueIsPlaceholder(value) {
  return isRedacted(value) || PLACEHOLDER.test(value) || ENV_NAME.test(value);
}
function redactNamedSecrets(text2, marker) {
  candidatePattern ??= new RegExp(CANDIDATE_SOURCE, "gi");
  const pattern = candidatePattern;
  pattern.lastIndex = 0;
  let result = "";
  let position = 0;
  const lineEndAfter = lineEnds(text2);
  for (let match = pattern.exec(text2); match !== null; match = pattern.exec(text2)) {
    const found = namedSecretAt(text2, match, lineEndAfter);
    if (found === void 0) continue;
    const redacted = found.quoted ? `${found.quoted[0]}${marker(found.kind)}${found.quoted[1]}` : marker(found.kind);
    result += text2.slice(position, found.start) + redacted;
    position = found.start + found.length;
    pattern.lastIndex = Math.max(pattern.lastIndex, position);
  }
  return position === 0 ? text2 : result + text2.slice(position);
}
function lineEnds(text2) {
  let lineEnd = -1;
  return (start) => {
    if (lineEnd < start) {
      lineEnd = text2.indexOf("\n", start);
      if (lineEnd === -1) lineEnd = text2.length;
    }
    return lineEnd;
  };
}
function namedSecretAt(text2, match, lineEndAfter) {
  const [whole, word = "", rest = "", quote = "", spaceBefore = "", separator = "", dq, sq, bare] = match;
  const nameStart = nameStartBefore(text2, match.index);
  if (readsVariable(text2, nameStart)) return void 0;
  const bareName = (text2.slice(nameStart, match.index) + word + rest).replace(/^[-.]+/, "");
  const kind = credentialNameKind(bareName);
  const value = dq ?? sq ?? bare ?? "";
  if (kind === void 0 || valueIsPlaceholder(value.trim())) return void 0;
  const start = match.index + word.length + rest.length + quote.length + spaceBefore.length + separator.length;
  if (bare === void 0)
    return {
      start,
      length: value.length + 2,
      kind,
      quoted: [whole.charAt(start - match.index), whole.charAt(whole.length - 1)]
    };
  const after = text2.charAt(match.index + whole.length);
  const length = separator.trim() === ":" && !HEADER_NAME.test(bareName) ? yamlValueLength(text2, start, lineEndAfter(start), UPPER_NAME.test(bareName)) : bareSecretLength(bareName, spaceBefore, separator, value, after);
  return length === 0 ? void 0 : { start, length, kind };
}
function nameStartBefore(text2, index) {
  let start = index;
  while (start > 0 && index - start < MAX_NAME && isNameChar(text2.charCodeAt(start - 1))) start--;
  return start;
}
function readsVariable(text2, nameStart) {
  const before = text2.charAt(nameStart - 1);
  return before === "$" || before === "{" && text2.charAt(nameStart - 2) === "$";
}
function bareSecretLength(name, spaceBefore, separator, value, after) {
  return bareIsSecret(name, spaceBefore, separator, value, after) ? value.length : 0;
}

// src/transcript/secrets.ts
var RULES = [...TOKEN_RULES, AWS_BARE_SECRET].map((spec) => ({ spec }));
function applyRule(text2, rule) {
  const { spec } = rule;
  rule.pattern ??= new RegExp(spec.source, `g${spec.flags ?? ""}`);
  return text2.replace(rule.pattern, (match, ...groups) => {
    if (spec.keep !== void 0) {
      const offset = groups.find((group) => typeof group === "number") ?? 0;
      if (spec.keep(match, text2.slice(offset + match.length, offset + match.length + 256))) return match;
    }
    const prefix = spec.keepPrefix === true && typeof groups[0] === "string" ? groups[0] : "";
    return prefix + redactionMarker(spec.kind);
  });
}
var PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,64}PRIVATE KEY(?: BLOCK)?-----/g;
var PEM_END = /-----END [A-Z0-9 ]{0,64}PRIVATE KEY(?: BLOCK)?-----/g;
function redactPrivateKeyBlocks(text2) {
  if (!text2.includes("PRIVATE KEY")) return text2;
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
function redactSecrets(text2) {
  if (text2.length < 8) return text2;
  let result = redactPrivateKeyBlocks(text2);
  const lower = result.toLowerCase();
  for (const rule of RULES) {
    if (rule.spec.keywords.some((keyword) => lower.includes(keyword))) result = applyRule(result, rule);
  }
  return CREDENTIAL_WORDS.some((word) => lower.includes(word)) ? redactNamedSecrets(result, redactionMarker) : result;
}

// src/transcript/privacy.ts
var stripInjectedBlocks = createTagBlockStripper(
  ["system-reminder", "openviking-context", "relevant-memories", "relevant-memory"],
  "drop-tag"
);
var stripPrivateBlocks = createTagBlockStripper(["private"], "drop-rest");
function sanitizeText(text2) {
  const withoutBlocks = stripPrivateBlocks(stripInjectedBlocks(text2.includes("\0") ? text2.replaceAll("\0", "") : text2));
  return redactSecrets(withoutBlocks).trim();
}
function outboundQuery(text2) {
  const clean = sanitizeText(text2);
  return withoutMarkers(clean).trim();
}

// src/mcp/outbound.ts
var TOOL_FIELDS = {
  remember: [[["messages", "*", "content"], sanitizeText]],
  write: [[["content"], sanitizeText]],
  edit: [[["new_string"], sanitizeText]],
  add_resource: [[["description"], sanitizeText]],
  search: [[["query"], outboundQuery]],
  find: [[["query"], outboundQuery]]
};
function filterAt(value, path, filter) {
  const [head, ...rest] = path;
  if (head === void 0) return typeof value === "string" ? filter(value) : value;
  if (head === "*") return Array.isArray(value) ? value.map((item) => filterAt(item, rest, filter)) : value;
  if (!isRecord(value) || !(head in value)) return value;
  return { ...value, [head]: filterAt(value[head], rest, filter) };
}
function filterOutboundParams(method, params) {
  if (method !== "tools/call" || params === void 0) return params;
  const fields = typeof params["name"] === "string" ? TOOL_FIELDS[params["name"]] : void 0;
  if (fields === void 0 || !isRecord(params["arguments"])) return params;
  let args = params["arguments"];
  for (const [path, filter] of fields) args = filterAt(args, path, filter);
  return { ...params, arguments: args };
}

// src/mcp/snapshot.ts
import { join as join6 } from "node:path";

// src/store/atomic.ts
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join as join5 } from "node:path";

// src/store/jsonFile.ts
var MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;
async function readJsonDetailed(path) {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent === "missing") return { status: "missing" };
  if (file.absent !== void 0) return { status: "unreadable", reason: `${path} ${file.why}` };
  const text2 = file.text;
  try {
    return { status: "ok", value: JSON.parse(text2) };
  } catch {
    return { status: "corrupt", reason: `invalid JSON (${text2.length} chars; ${describeJsonSyntax(text2)})` };
  }
}
async function readJson(path) {
  const result = await readJsonDetailed(path);
  return result.status === "ok" ? result.value : void 0;
}

// src/store/atomic.ts
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

// src/mcp/snapshot.ts
var SNAPSHOT_VERSION = 1;
function snapshotPath(cacheDir, mcpUrl) {
  return join6(cacheDir, `mcp-upstream-${safeFileKey(mcpUrl)}.json`);
}
function narrowSnapshot(value, mcpUrl) {
  if (!isRecord(value) || value.version !== SNAPSHOT_VERSION || value.mcpUrl !== mcpUrl) return void 0;
  const snapshot = {
    version: SNAPSHOT_VERSION,
    mcpUrl,
    savedAt: typeof value.savedAt === "number" ? value.savedAt : 0
  };
  const profile = value.profile;
  if (isRecord(profile) && isRecord(profile.capabilities)) {
    snapshot.profile = { capabilities: profile.capabilities };
    if (typeof profile.instructions === "string") snapshot.profile.instructions = profile.instructions;
  }
  if (Array.isArray(value.tools)) snapshot.tools = value.tools;
  return snapshot;
}
function createSnapshotStore(options) {
  const byUrl = /* @__PURE__ */ new Map();
  let updates = Promise.resolve();
  const load = (mcpUrl) => {
    let loaded = byUrl.get(mcpUrl);
    if (!loaded) {
      const { cacheDir } = options;
      loaded = cacheDir === void 0 ? Promise.resolve(void 0) : readJson(snapshotPath(cacheDir, mcpUrl)).then((value) => narrowSnapshot(value, mcpUrl));
      byUrl.set(mcpUrl, loaded);
    }
    return loaded;
  };
  const update = (mcpUrl, change) => {
    let changed = false;
    const merged = load(mcpUrl).then((previous) => {
      changed = Object.entries(change).some(
        ([field, value]) => JSON.stringify(previous?.[field]) !== JSON.stringify(value)
      );
      return changed ? { ...previous, ...change, version: SNAPSHOT_VERSION, mcpUrl, savedAt: options.now() } : previous;
    });
    byUrl.set(mcpUrl, merged);
    const run = updates.then(async () => {
      const next = await merged;
      const { cacheDir } = options;
      if (!changed || next === void 0 || cacheDir === void 0) return;
      await writeJsonAtomic(snapshotPath(cacheDir, mcpUrl), next, { fsync: false }).catch(
        (error) => options.warn(`could not save the upstream snapshot: ${errorMessage(error)}`)
      );
    });
    updates = run;
    return run;
  };
  return { load, update };
}

// src/project/identity.ts
import { resolve as resolve4 } from "node:path";

// src/project/gitRepo.ts
import { basename as basename2, dirname as dirname2, isAbsolute as isAbsolute3, join as join7, resolve as resolve2, sep } from "node:path";
var MAX_GIT_FILE_BYTES = 256 * 1024;
var SUBMODULE_DIR = /[/\\]\.git[/\\]modules[/\\]/;
function gitDirAt(dir, notes) {
  const dotGit = join7(dir, ".git");
  notes.touched.push(dotGit);
  const stat = statQuietly(dotGit);
  if (stat === void 0) return void 0;
  if (stat.isDirectory()) return { gitRoot: dir, gitDir: dotGit, commonDir: dotGit, kind: "repo" };
  const pointer = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit, notes) ?? "")?.[1]?.trim();
  if (!pointer) return void 0;
  const gitDir = resolve2(dir, pointer);
  const common = commonDirOf(gitDir, notes);
  const kind = SUBMODULE_DIR.test(`${common.dir}${sep}`) ? "submodule" : common.named ? "worktree" : "repo";
  return { gitRoot: dir, gitDir, commonDir: common.dir, kind };
}
function mainCheckout(git) {
  if (git.kind !== "worktree") return git.gitRoot;
  return basename2(git.commonDir) === ".git" ? dirname2(git.commonDir) : git.commonDir;
}
function commonDirOf(gitDir, notes) {
  const commondirFile = join7(gitDir, "commondir");
  notes.touched.push(commondirFile);
  const common = readSmall(commondirFile, notes)?.trim();
  if (!common) return { dir: gitDir, named: false };
  const target = isAbsolute3(common) ? common : resolve2(gitDir, common);
  if (statQuietly(target)?.isDirectory() === true) return { dir: target, named: true };
  notes.ignored.push(`${commondirFile} names ${target}, which is not a directory; ignoring it`);
  return { dir: gitDir, named: false };
}
function readGitConfig(commonDir, notes) {
  const file = join7(commonDir, "config");
  notes.touched.push(file);
  return readSmall(file, notes) ?? "";
}
function originUrl(config) {
  let inOrigin = false;
  for (const rawLine of config.split("\n")) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      inOrigin = /^remote\s+"(.*)"$/i.exec(header[1].trim())?.[1] === "origin";
      continue;
    }
    const entry = inOrigin ? /^url\s*=\s*(.*)$/i.exec(line) : null;
    if (entry)
      return entry[1].split(/[#;]/)[0]?.trim().replace(/^["']/, "").replace(/["']$/, "") || void 0;
  }
  return void 0;
}
function pickRemoteUrl(config) {
  const urls = /* @__PURE__ */ new Map();
  let remote;
  for (const rawLine of config.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section2 = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section2) {
      remote = section2[1].toLowerCase() === "remote" ? section2[2] ?? "" : void 0;
      continue;
    }
    if (remote === void 0 || urls.has(remote)) continue;
    const entry = /^url\s*=\s*(.*)$/i.exec(line);
    if (entry) urls.set(remote, unquote(entry[1]));
  }
  return urls.get("origin") ?? urls.values().next().value;
}
function unquote(value) {
  const trimmed = value.replace(/\s+[#;].*$/, "").trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2 ? trimmed.slice(1, -1) : trimmed;
}
function readSmall(path, notes, maxBytes = MAX_GIT_FILE_BYTES) {
  const file = readSmallFile(path, maxBytes);
  if (file.absent !== void 0 && file.absent !== "missing") notes.ignored.push(`${path} ${file.why}; ignoring it`);
  return file.text;
}

// src/store/sha256.ts
var K = new Uint32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);
function sha256Hex(text2) {
  const bytes = new TextEncoder().encode(text2);
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 128;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor(bytes.length * 8 / 4294967296));
  view.setUint32(length - 4, bytes.length * 8 >>> 0);
  const h = new Uint32Array([
    1779033703,
    3144134277,
    1013904242,
    2773480762,
    1359893119,
    2600822924,
    528734635,
    1541459225
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const a2 = w[i - 15];
      const b2 = w[i - 2];
      const s0 = rotr(a2, 7) ^ rotr(a2, 18) ^ a2 >>> 3;
      const s1 = rotr(b2, 17) ^ rotr(b2, 19) ^ b2 >>> 10;
      w[i] = w[i - 16] + s0 + w[i - 7] + s1 >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (e & f ^ ~e & g) + K[i] + w[i] >>> 0;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + (a & b ^ a & c ^ b & c) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = d + t1 >>> 0;
      d = c;
      c = b;
      b = a;
      a = t1 + t2 >>> 0;
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = h[i] + next[i] >>> 0;
  }
  return Array.from(h, (word) => word.toString(16).padStart(8, "0")).join("");
}
function rotr(value, bits) {
  return value >>> bits | value << 32 - bits;
}

// src/project/remote.ts
var PEER_ID_PATTERN = /^[a-zA-Z0-9_.@-]+$/;
var MAX_PEER_ID_LENGTH = 128;
function isValidPeerId(value) {
  return value.length <= MAX_PEER_ID_LENGTH && PEER_ID_PATTERN.test(value) && value !== "." && value !== ".." && value.split("@").length <= 2;
}
function canonicalRemote(url) {
  const text2 = url.trim();
  if (text2 === "") return void 0;
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(text2);
  let host;
  let path;
  if (withScheme) {
    const scheme = withScheme[1].toLowerCase();
    const rest = withScheme[2];
    if (scheme === "file") return `local${normalisePath(withoutQuery(rest))}`;
    const hostAndPath = rest.slice(userInfoEnd(rest));
    const hostEnd = hostAndPath.search(/[/?#]/);
    host = hostOf(hostEnd === -1 ? hostAndPath : hostAndPath.slice(0, hostEnd));
    path = hostEnd === -1 ? "" : withoutQuery(hostAndPath.slice(hostEnd));
  } else {
    const colon = text2.indexOf(":");
    const slash = text2.indexOf("/");
    const scp = colon !== -1 && (slash === -1 || colon < slash) ? /^(?:.*@)?([^:/@\s]+):(?!\/\/)(.*)$/s.exec(text2) : null;
    if (!scp || /^[a-z]$/i.test(scp[1])) return `local${normalisePath(withoutQuery(text2))}`;
    host = scp[1].toLowerCase();
    path = withoutQuery(scp[2]);
  }
  const cleanPath = normalisePath(path);
  if (host === "" || cleanPath === "") return void 0;
  return `${host}${cleanPath}`;
}
function userInfoEnd(rest) {
  for (let at = rest.lastIndexOf("@"); at !== -1; at = at === 0 ? -1 : rest.lastIndexOf("@", at - 1)) {
    if (/^[^/?#@\s]+\//.test(rest.slice(at + 1))) return at + 1;
  }
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  return authority.lastIndexOf("@") + 1;
}
function withoutQuery(path) {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}
function peerIdForRemote(canonical) {
  const shown = canonical.startsWith("local/") ? `local-${canonical.split("/").pop() ?? ""}` : canonical;
  return `git-${readable(shown)}-${hash64Hex(canonical).slice(0, 8)}`;
}
function localPeerId(commonDir) {
  const name = commonDir.replace(/\/+$/, "").replace(/\/\.git$/, "").split("/").pop() ?? "";
  return `git-local-${readable(name) || "repo"}-${hash64Hex(commonDir).slice(0, 8)}`;
}
function hostOf(hostPort) {
  const bracketed = /^\[[^\]]*\]/.exec(hostPort);
  return (bracketed ? bracketed[0] : hostPort.split(":")[0] ?? "").toLowerCase();
}
function normalisePath(path) {
  const segments = path.split(/[/\\]+/).filter((segment) => segment !== "" && segment !== ".");
  if (segments.length === 0) return "";
  const last = segments.length - 1;
  segments[last] = segments[last].replace(/\.git$/i, "");
  if (segments[last] === "") segments.pop();
  return segments.length === 0 ? "" : `/${segments.join("/")}`.toLowerCase();
}
function readable(text2) {
  return text2.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 64).replace(/[-.]+$/, "");
}

// src/project/peerTemplate.ts
var PRESETS = Object.freeze({
  git: ["{git_remote}", "{git_root}"],
  cwd: ["{cwd}"],
  none: []
});
var MAX_ID_LENGTH = 100;
var DEFAULT_PORTS = {
  ssh: "22",
  http: "80",
  https: "443",
  git: "9418",
  rsync: "873"
};
function parseRemote(url) {
  const raw = url.trim();
  if (raw === "" || /^[A-Za-z]:[\\/]/.test(raw)) return void 0;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(raw);
  if (scheme === null) {
    const colon = raw.indexOf(":");
    const slash = raw.search(/[/\\]/);
    const scp = colon !== -1 && (slash === -1 || colon < slash) ? /^(?:.*@)?([^:/\\@\s]+):(?!\/)(.+)$/s.exec(raw) : null;
    return scp === null ? void 0 : { scheme: "ssh", host: scp[1], path: withoutQuery2(scp[2]), port: "" };
  }
  const rest = raw.slice(scheme[0].length);
  let parsed;
  try {
    parsed = new URL(`${scheme[0]}${rest.slice(userInfoEnd(rest))}`);
  } catch {
    return void 0;
  }
  if (parsed.protocol === "file:" || parsed.hostname === "") return void 0;
  return { scheme: parsed.protocol.slice(0, -1), host: parsed.hostname, path: parsed.pathname, port: parsed.port };
}
function normalizeRemote(parts) {
  if (parts === void 0) return "";
  const host = parts.host.toLowerCase().replace(/^\[/, "").replace(/\]$/, "");
  const path = parts.path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/\.git$/i, "").toLowerCase();
  return host === "" || path === "" ? "" : `${host}/${path}`;
}
function remotePort(parts) {
  if (parts === void 0 || parts.port === "") return "";
  return DEFAULT_PORTS[parts.scheme] === parts.port ? "" : parts.port;
}
function gitRemoteVariable(url) {
  return url === void 0 ? "" : sanitizePeerId(normalizeRemote(parseRemote(url)));
}
function sanitizePeerId(value) {
  const raw = value.trim();
  let id = raw.replace(/[^a-zA-Z0-9_.@-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[-.]+|[-.]+$/g, "");
  if (id === "") return "";
  const at = id.indexOf("@");
  if (at !== -1) id = `${id.slice(0, at + 1)}${id.slice(at + 1).replace(/@/g, "-")}`;
  if (id.startsWith("ext-")) id = `x-${id}`;
  if (id === "__self") id = "self";
  if (id === "." || id === "..") return "";
  if (id.length > MAX_ID_LENGTH) id = `${id.slice(0, 87).replace(/[-.]+$/, "")}-${sha256Hex(raw).slice(0, 12)}`;
  return id;
}
function legacyPeerForm(value) {
  return value.replace(/[^A-Za-z0-9]/g, "-");
}
function templatesOf(source, warn) {
  if (Array.isArray(source)) return source.map((item) => String(item)).filter((item) => item !== "");
  const text2 = typeof source === "string" ? source.trim() : "";
  if (text2 === "") return PRESETS.git;
  const preset = PRESETS[text2];
  if (preset !== void 0) return preset;
  if (text2.includes("{")) return [text2];
  warn(
    `peer source "${text2.slice(0, 60)}" is neither a preset (git, cwd, none) nor a template such as "team-{dir}"; using git`
  );
  return PRESETS.git;
}
function renderTemplate(template, variables) {
  let complete = true;
  const rendered = template.replace(/\{([a-z_]+)\}/g, (_, name) => {
    const value = Object.hasOwn(variables, name) ? variables[name] : "";
    if (value === "") complete = false;
    return value;
  });
  return complete ? rendered : "";
}
function firstRendered(templates, variables, warn) {
  for (const template of templates) {
    const id = renderTemplate(template, variables);
    if (id === "") continue;
    if (isValidPeerId(id)) return { id, template };
    warn(
      `peer source "${template}" renders "${id.slice(0, 60)}", which is not a valid peer id (^[a-zA-Z0-9_.@-]+$, one @, 128 characters); trying the next`
    );
  }
  return void 0;
}
function withoutQuery2(path) {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

// src/project/workspaceConfig.ts
import { join as join9 } from "node:path";

// src/project/workspaceRoot.ts
import { dirname as dirname3, join as join8, parse, resolve as resolve3 } from "node:path";
var WORKSPACE_DIR = ".openviking";
var WORKSPACE_FILES = ["config.json", "config.local.json"];
var MAX_FOLDER_CHARS = 4096;
function findWorkspaceRoot(folder, homeDir, notes) {
  if (folder.trim() === "" || folder.length > MAX_FOLDER_CHARS) return void 0;
  const absolute = resolve3(folder);
  if (absolute.length > MAX_FOLDER_CHARS) return void 0;
  const real = realPath(absolute);
  const realHome = realPath(resolve3(homeDir));
  let current = real !== void 0 && realHome !== void 0 ? real : absolute;
  const stopAt = real !== void 0 && realHome !== void 0 ? realHome : resolve3(homeDir);
  const fsRoot = parse(current).root;
  let marked;
  for (; current !== fsRoot && current !== stopAt; current = dirname3(current)) {
    const git = gitDirAt(current, notes);
    if (git !== void 0 && marked !== void 0) return { root: marked, rootKind: "config", hasFiles: true, git };
    const files = marked === void 0 ? workspaceFilesAt(current, notes) : "none";
    if (git !== void 0) return { root: current, rootKind: "git", hasFiles: files !== "none", git };
    if (files === "regular") marked = current;
  }
  return marked === void 0 ? void 0 : { root: marked, rootKind: "config", hasFiles: true };
}
function workspaceFilesAt(dir, notes) {
  const stats = WORKSPACE_FILES.map((name) => {
    const path = join8(dir, WORKSPACE_DIR, name);
    notes.touched.push(path);
    return statQuietly(path);
  });
  if (stats.some((stat) => stat?.isFile() === true)) return "regular";
  return stats.some((stat) => stat !== void 0) ? "other" : "none";
}

// src/project/workspaceFile.ts
import { sep as sep2 } from "node:path";
var BOUNDS = {
  recallLimit: { min: KNOB_TABLE.recallLimit.min, max: KNOB_TABLE.recallLimit.max },
  scoreThreshold: { min: KNOB_TABLE.scoreThreshold.min, max: KNOB_TABLE.scoreThreshold.max },
  recallDedupTurns: { min: KNOB_TABLE.recallDedupTurns.min, max: KNOB_TABLE.recallDedupTurns.max }
};
var FLAT_KEYS = {
  enabled: { field: "enabled", kind: "bool" },
  autoRecall: { field: "autoRecall", kind: "bool" },
  autoCapture: { field: "autoCapture", kind: "bool" },
  autoProfile: { field: "autoProfile", kind: "bool" },
  peerId: { field: "peerId", kind: "peerId" }
};
var SCHEMA_KEYS = {
  "peer.id": { field: "peerId", kind: "peerId" },
  "peer.source": { field: "peerSource", kind: "source" },
  "recall.enabled": { field: "autoRecall", kind: "bool" },
  "recall.max_items": { field: "recallLimit", kind: "int", ...BOUNDS.recallLimit },
  "recall.score_threshold": { field: "scoreThreshold", kind: "float", ...BOUNDS.scoreThreshold },
  "recall.peer_scope": { field: "recallPeerScope", kind: "scope" },
  "recall.dedup_turns": { field: "recallDedupTurns", kind: "int", ...BOUNDS.recallDedupTurns },
  "capture.enabled": { field: "autoCapture", kind: "bool" }
};
var NOT_APPLIED = {
  "capture.commit_token_threshold": "the capture worker commits by OPENVIKING_COMMIT_TOKEN_THRESHOLD",
  "bypass.session_patterns": 'use "enabled": false to leave this workspace alone'
};
var CONNECTION_KEYS = new Set(
  "url base_url mcp_url api_key bearer_token root_api_key gateway_token oidc_token ldap_username ldap_password account account_id user user_id auth_mode extra_headers credential_source cli_config_file config_file baseUrl mcpUrl apiKey bearerToken rootApiKey gatewayToken accountId userId authMode extraHeaders credentialSource credentialPath configPath".split(
    " "
  )
);
var SCHEMA_SECTIONS = ["peer", "recall", "capture", "bypass"];
var SILENT_KEYS = /* @__PURE__ */ new Set(["$schema", "version", "min_client_version", "labels"]);
var MAX_WORKSPACE_FILE_BYTES = 64 * 1024;
function readWorkspaceFile(path, root, report) {
  const real = realPath(path);
  if (real === void 0) return void 0;
  const layer = { path, values: {}, origins: {} };
  if (!insideRoot(real, root)) {
    report.warnings.push(`${path} resolves outside the workspace ${root}; ignoring it (not read)`);
    return layer;
  }
  const file = loadConfigFile(real, path, (target) => readTextAtMost(target, MAX_WORKSPACE_FILE_BYTES));
  if (!file.exists) return void 0;
  if (file.warning !== void 0) report.warnings.push(file.warning);
  if (file.value === void 0) return layer;
  const version = file.value["version"];
  if (version !== void 0 && version !== 1) {
    report.warnings.push(
      `${path} declares version ${JSON.stringify(version)}; this plugin understands 1; ignoring the file`
    );
    return layer;
  }
  layer.parsed = file.value;
  for (const key of connectionKeysIn(file.value, ""))
    report.warnings.push(
      `${path}: ignored '${key}': a file in the workspace never sets a server, a key or an account (use ovcli.conf or the environment)`
    );
  const schemaKeys = readKeys(file.value, layer, report);
  if (version === void 0 && schemaKeys > 0)
    report.notes.push(`${path} has no "version": 1; OpenViking's own plugins ignore it until it has`);
  return layer;
}
function readKeys(values, layer, report) {
  let schemaKeys = 0;
  for (const [key, value] of Object.entries(values)) {
    if (SILENT_KEYS.has(key) || CONNECTION_KEYS.has(key)) continue;
    const flat = FLAT_KEYS[key];
    if (flat !== void 0) take(layer, key, flat, value, report);
    else if (isRecord(value) && SCHEMA_SECTIONS.includes(key)) schemaKeys += readSection(key, value, layer, report);
    else report.notes.push(`${layer.path}: unknown key '${key}' ignored`);
  }
  return schemaKeys;
}
function readSection(section2, values, layer, report) {
  let seen = 0;
  for (const [child, childValue] of Object.entries(values)) {
    const dotted = `${section2}.${child}`;
    if (CONNECTION_KEYS.has(child)) continue;
    seen++;
    const spec = SCHEMA_KEYS[dotted];
    if (spec !== void 0) take(layer, dotted, spec, childValue, report);
    else report.notes.push(`${layer.path}: '${dotted}' ignored: ${NOT_APPLIED[dotted] ?? "unknown key"}`);
  }
  return seen;
}
function take(layer, key, spec, raw, report) {
  const value = parseValue(key, spec, raw, layer.path, report);
  if (value === void 0) return;
  const earlier = layer.origins[spec.field];
  if (earlier !== void 0) report.notes.push(`${layer.path}: '${key}' replaces '${earlier.key}' of the same file`);
  layer.values[spec.field] = value;
  layer.origins[spec.field] = { key, path: layer.path, ...failsClosed(spec, raw) ? { unclear: raw } : {} };
}
function failsClosed(spec, raw) {
  return spec.kind === "bool" && switchValue(raw) === void 0 && privacySwitch(spec.field) !== void 0;
}
function privacySwitch(field) {
  const knob = KNOB_TABLE[field];
  return knob?.type === "bool" ? knob.failClosed : void 0;
}
function switchValue(raw) {
  return typeof raw === "boolean" ? raw : parseSwitch(typeof raw === "string" ? raw : void 0);
}
function parseValue(key, spec, raw, path, report) {
  const ignored = (why) => void report.warnings.push(`${path}: ignored '${key}': ${JSON.stringify(raw)?.slice(0, 80)} ${why}`);
  switch (spec.kind) {
    case "bool": {
      const value = switchValue(raw);
      if (value !== void 0) return value;
      const closed = privacySwitch(spec.field);
      if (closed === void 0) {
        ignored(`is not true or false (${SWITCH_WORDS_TEXT})`);
        return void 0;
      }
      report.warnings.push(
        `${path}: '${key}': ${JSON.stringify(raw)?.slice(0, 80)} is not true or false (${SWITCH_WORDS_TEXT}); a privacy switch, so it reads as ${String(closed)} (the value that sends less) until it is`
      );
      return closed;
    }
    case "int":
    case "float":
      return parseNumber2(key, spec, raw, path, report);
    case "scope":
      if (raw === "all" || raw === "actor") return raw;
      ignored("is not one of all, actor");
      return void 0;
    case "peerId": {
      if (raw === false || raw === "") return false;
      const id = typeof raw === "string" ? raw.trim() : "";
      if (isValidPeerId(id)) return id;
      ignored("is not a peer id (^[a-zA-Z0-9_.@-]+$, one @, 128 characters) or false");
      return void 0;
    }
    case "source":
      if (typeof raw === "string") return raw.trim();
      if (Array.isArray(raw) && raw.every((item) => typeof item === "string"))
        return raw.map((item) => item.trim()).filter(Boolean);
      ignored("is not a preset, a template or a list of templates");
      return void 0;
  }
}
function parseNumber2(key, spec, raw, path, report) {
  const parsed = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  if (!Number.isFinite(parsed)) {
    report.warnings.push(`${path}: ignored '${key}': ${JSON.stringify(raw)?.slice(0, 80)} is not a number`);
    return void 0;
  }
  const value = spec.kind === "int" ? Math.floor(parsed) : parsed;
  const clamped = Math.min(spec.max ?? value, Math.max(spec.min ?? value, value));
  if (clamped !== value)
    report.warnings.push(`${path}: clamped '${key}' from ${value} to ${clamped} (allowed ${spec.min}..${spec.max})`);
  return clamped;
}
function connectionKeysIn(value, prefix) {
  const found = [];
  for (const [key, child] of Object.entries(value)) {
    const dotted = prefix === "" ? key : `${prefix}.${key}`;
    if (CONNECTION_KEYS.has(key)) found.push(dotted);
    else if (isRecord(child) && !(prefix === "" && key === "labels")) found.push(...connectionKeysIn(child, dotted));
  }
  return found;
}
function insideRoot(real, root) {
  const realRoot = realPath(root);
  return realRoot !== void 0 && real.startsWith(`${realRoot}${sep2}`);
}

// src/project/workspaceConfig.ts
var PROJECT_SWITCHES = ["enabled", "autoRecall", "autoCapture", "autoProfile"];
function readWorkspaceConfig(root, touched) {
  const report = { warnings: [], notes: [] };
  const paths = WORKSPACE_FILES.map((name) => join9(root, WORKSPACE_DIR, name));
  touched.push(...paths);
  const layers = paths.map((path) => readWorkspaceFile(path, root, report)).filter((layer) => layer !== void 0);
  if (layers.length === 0) return void 0;
  return mergeLayers(layers, report);
}
function mergeLayers(layers, report) {
  const merged = {
    files: layers.map((layer) => layer.path),
    values: {},
    origins: {},
    layers,
    ...report
  };
  for (const layer of layers) {
    for (const field of Object.keys(layer.values)) {
      const value = field === "peerSource" ? mergeSources(merged.values.peerSource, layer.values.peerSource) : layer.values[field];
      merged.values[field] = value;
      merged.origins[field] = layer.origins[field];
    }
  }
  return merged;
}
function mergeSources(earlier, later) {
  if (!Array.isArray(later)) return later;
  if (later[0] === "!reset") return later.slice(1);
  return Array.isArray(earlier) ? [.../* @__PURE__ */ new Set([...earlier, ...later])] : later;
}
function originText(config, field) {
  const origin = config.origins[field];
  if (origin === void 0) return "";
  if ("unclear" in origin)
    return `${origin.key}: ${JSON.stringify(origin.unclear)?.slice(0, 40)} (not true or false: read as ${JSON.stringify(config.values[field])}) in ${origin.path}`;
  return `${origin.key}: ${JSON.stringify(config.values[field])} in ${origin.path}`;
}
function switchesOff(config) {
  const off = {};
  for (const name of PROJECT_SWITCHES) if (config?.values[name] === false) off[name] = originText(config, name);
  return off;
}
function applyWorkspace(settings, config) {
  if (config === void 0) return { settings, ignored: [] };
  const next = { ...settings };
  const ignored = [];
  const { values } = config;
  const cannot = (field, why) => ignored.push(`ignored ${originText(config, field)}: ${why}`);
  for (const name of PROJECT_SWITCHES) {
    if (values[name] === false) next[name] = false;
    else if (values[name] === true && !settings[name])
      cannot(name, "a workspace file never turns on what your settings turn off");
  }
  if (values.recallLimit !== void 0) {
    if (values.recallLimit < settings.recallLimit) next.recallLimit = values.recallLimit;
    else if (values.recallLimit > settings.recallLimit)
      cannot("recallLimit", `a workspace file may only lower the recall limit (yours: ${settings.recallLimit})`);
  }
  if (values.scoreThreshold !== void 0) {
    if (values.scoreThreshold > settings.scoreThreshold) next.scoreThreshold = values.scoreThreshold;
    else if (values.scoreThreshold < settings.scoreThreshold)
      cannot(
        "scoreThreshold",
        `a workspace file may only raise the score threshold (yours: ${settings.scoreThreshold})`
      );
  }
  if (values.recallPeerScope === "actor") next.recallPeerScope = "actor";
  else if (values.recallPeerScope === "all" && settings.recallPeerScope.trim().toLowerCase() === "actor")
    cannot("recallPeerScope", "a workspace file may only narrow the peer scope to actor (yours: actor)");
  if (values.recallDedupTurns !== void 0) next.recallDedupTurns = values.recallDedupTurns;
  return { settings: next, ignored };
}

// src/project/gitTracked.ts
import { join as join10, sep as sep3 } from "node:path";
var MAX_INDEX_BYTES = 4 * 1024 * 1024 - 1;
function trackedByGit(git, path) {
  const top = git.gitRoot.endsWith(sep3) ? git.gitRoot : `${git.gitRoot}${sep3}`;
  if (!path.startsWith(top)) return true;
  const inRepo = path.slice(top.length).split(sep3).join("/");
  const index = readSmallFile(join10(git.gitDir, "index"), MAX_INDEX_BYTES);
  if (index.absent === "missing") return false;
  if (index.absent !== void 0 || !readableIndex(index.text)) return true;
  const needle = `${inRepo}\0`;
  if (index.text.includes(needle)) return true;
  for (const name of namesInDir(git.gitDir).filter((entry) => entry.startsWith("sharedindex."))) {
    const shared = readSmallFile(join10(git.gitDir, name), MAX_INDEX_BYTES);
    if (shared.absent !== void 0 || !readableIndex(shared.text) || shared.text.includes(needle)) return true;
  }
  return false;
}
function readableIndex(text2) {
  return text2.startsWith("DIRC\0\0\0") && (text2.charCodeAt(7) === 2 || text2.charCodeAt(7) === 3);
}

// src/project/trust.ts
import { join as join11 } from "node:path";
var MAX_TRUST_BYTES = 256 * 1024;
function trustFile(dataDir) {
  return join11(dataDir, "trust.json");
}
function contentDigest(parsed) {
  return sha256Hex(JSON.stringify(parsed));
}
function readApprovals(dataDir) {
  const value = parseJson(readSmallFile(trustFile(dataDir), MAX_TRUST_BYTES).text ?? "");
  const listed = isRecord(value) && Array.isArray(value["approvals"]) ? value["approvals"] : [];
  return listed.filter(isApproval);
}
function isApproved(approvals, root, file, digest) {
  return approvals.some((approval) => approval.root === root && approval.file === file && approval.digest === digest);
}
function isApproval(value) {
  return isRecord(value) && typeof value["root"] === "string" && typeof value["file"] === "string" && typeof value["digest"] === "string" && typeof value["peer"] === "string" && typeof value["at"] === "number";
}

// src/project/peerApproval.ts
function approvedPeer(config, where, dataDir, peerOf2) {
  const full = peerOf2(config);
  const naming = (config?.layers ?? []).filter(
    (layer) => layer.values.peerId !== void 0 || layer.values.peerSource !== void 0
  );
  if (config === void 0 || where === void 0 || naming.length === 0) return full;
  const withoutAny = peerOf2(withoutPeers(config, naming));
  if (withoutAny.peerId === full.peerId) return full;
  const gated = naming.filter((layer) => nameOf(layer) === WORKSPACE_FILES[0] || tracked(layer, where.git));
  if (gated.length === 0) return full;
  const without = gated.length === naming.length ? withoutAny : peerOf2(withoutPeers(config, gated));
  if (without.peerId === full.peerId) return full;
  const files = gated.map((layer) => ({
    path: layer.path,
    file: nameOf(layer),
    digest: contentDigest(layer.parsed ?? {})
  }));
  if (allApproved(files, where.root, dataDir)) return { ...full, approved: files.map((file) => file.path) };
  return { ...without, unapproved: { root: where.root, files, named: full.peerId ?? "(none)" } };
}
function nameOf(layer) {
  return layer.path.split(/[/\\]/).pop() ?? "";
}
function tracked(layer, git) {
  return git !== void 0 && trackedByGit(git, layer.path);
}
function withoutPeers(config, layers) {
  const stripped = config.layers.map((layer) => {
    if (!layers.includes(layer)) return layer;
    const { peerId: _id, peerSource: _source, ...values } = layer.values;
    const { peerId: _idFrom, peerSource: _sourceFrom, ...origins } = layer.origins;
    return { ...layer, values, origins };
  });
  return mergeLayers(stripped, { warnings: config.warnings, notes: config.notes });
}
function allApproved(files, root, dataDir) {
  if (dataDir === void 0) return false;
  const approvals = readApprovals(dataDir);
  return files.every((file) => isApproved(approvals, root, file.file, file.digest));
}

// src/project/scan.ts
var MAX_CACHE_AGE_MS = 6e4;
var MAX_CACHE_ENTRIES = 64;
var cache = /* @__PURE__ */ new Map();
var NO_VARIABLES = { git_remote: "", git_root: "", dir: "", git_port: "" };
function cachedScan(workspace, homeDir, now) {
  const hit = cache.get(workspace);
  if (hit !== void 0 && now - hit.at < MAX_CACHE_AGE_MS && hit.signatures.every(([path, signature]) => signatureOf(path) === signature))
    return hit.scan;
  const notes = { touched: [], ignored: [] };
  const scan = scanWorkspace(workspace, homeDir, notes);
  if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value);
  cache.set(workspace, { scan, signatures: notes.touched.map((path) => [path, signatureOf(path)]), at: now });
  return scan;
}
function scanWorkspace(workspace, homeDir, notes) {
  const root = findWorkspaceRoot(workspace, homeDir, notes);
  if (root === void 0) return { variables: NO_VARIABLES, remote: "", ignored: notes.ignored };
  const config = root.hasFiles ? readWorkspaceConfig(root.root, notes.touched) : void 0;
  const dir = sanitizePeerId(root.root.split(/[/\\]/).filter(Boolean).pop() ?? "");
  const scan = {
    root,
    variables: { ...NO_VARIABLES, dir },
    remote: "",
    ignored: notes.ignored,
    ...config ? { config } : {}
  };
  if (root.git === void 0) return scan;
  const gitConfig = readGitConfig(root.git.commonDir, notes);
  const origin = originUrl(gitConfig);
  const parts = origin === void 0 ? void 0 : parseRemote(origin);
  scan.variables = {
    dir,
    git_remote: gitRemoteVariable(origin),
    git_root: legacyPeerForm(mainCheckout(root.git)),
    git_port: remotePort(parts)
  };
  scan.remote = normalizeRemote(parts);
  scan.commonDir = root.git.commonDir;
  return scan;
}
function earlierGitIdOf(scan) {
  if (scan.commonDir === void 0 || scan.earlierGitId !== void 0) return scan.earlierGitId;
  const remoteUrl = pickRemoteUrl(readGitConfig(scan.commonDir, { touched: [], ignored: [] }));
  const canonical = remoteUrl === void 0 ? void 0 : canonicalRemote(remoteUrl);
  scan.earlierGitId = canonical !== void 0 ? peerIdForRemote(canonical) : localPeerId(remoteUrl === void 0 ? realPathNative(scan.commonDir) ?? scan.commonDir : scan.commonDir);
  return scan.earlierGitId;
}
function signatureOf(path) {
  const stat = statQuietly(path);
  return stat === void 0 ? "-" : `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
}

// src/project/identity.ts
function projectFor(config, workspace, homeDir, now, earlierIds = "for-recall") {
  const input = {
    workspace,
    homeDir,
    ...config.dataDir !== void 0 ? { dataDir: config.dataDir } : {},
    credentials: config.credentials,
    settings: config.settings,
    ...originOf(config),
    now
  };
  const project = resolveProject({ ...input, earlierIds: earlierIds === "always" || isActorScope(config.settings) });
  const applied = applyWorkspace(config.settings, project.config);
  const named = earlierIds === "for-recall" && !isActorScope(config.settings) && isActorScope(applied.settings) ? resolveProject({ ...input, earlierIds: true }) : project;
  return { project: named, settings: applied.settings, ignored: applied.ignored };
}
function isActorScope(settings) {
  return settings.recallPeerScope.trim().toLowerCase() === "actor";
}
function originOf(config) {
  const origin = config.settingSources?.peerSource;
  return origin === void 0 ? {} : { peerSourceOrigin: origin };
}
function resolveProject(input) {
  let scan;
  try {
    scan = cachedScan(resolve4(input.workspace), input.homeDir, input.now);
  } catch (error) {
    scan = { variables: NO_VARIABLES, remote: "", ignored: [`project not resolved (${errorMessage(error)})`] };
  }
  const warnings = [...scan.ignored, ...scan.config?.warnings ?? []];
  const base = {
    peerSource: "",
    earlierPeerIds: [],
    off: switchesOff(scan.config),
    warnings,
    ...scan.root ? { root: scan.root.root } : {},
    ...scan.config ? { config: scan.config } : {}
  };
  const explicit = explicitPeer(input.credentials, warnings);
  const where = scan.root === void 0 ? void 0 : { root: scan.root.root, ...scan.root.git ? { git: scan.root.git } : {} };
  return approvedPeer(
    scan.config,
    where,
    input.dataDir,
    (config) => peerOf(input, scan, { ...base, warnings: [...base.warnings] }, explicit, config)
  );
}
function peerOf(input, scan, base, explicit, config) {
  const named = config?.values.peerId;
  const namedBy = config === void 0 ? "" : originText(config, "peerId");
  if (explicit?.fromEnv) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (named === false) return { ...base, peerSource: `none (${namedBy})` };
  if (named !== void 0) return { ...base, peerId: named, peerSource: namedBy };
  if (explicit) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (!input.settings.workspacePeer) return { ...base, peerSource: "none (OPENVIKING_WORKSPACE_PEER off)" };
  return derivedPeer(input, scan, base, config);
}
function derivedPeer(input, scan, base, config) {
  const source = peerSourceOf(input, config);
  const templates = templatesOf(source.value, (message) => base.warnings.push(`${source.from}: ${message}`));
  if (templates.length === 0) return { ...base, peerSource: `none (peer source "none" from ${source.from})` };
  const variables = { ...scan.variables, cwd: legacyPeerForm(input.workspace) };
  const rendered = firstRendered(templates, variables, (message) => base.warnings.push(`${source.from}: ${message}`));
  if (rendered === void 0)
    return {
      ...base,
      peerSource: scan.root?.git === void 0 ? "none (not in a git repository)" : `none (no template of ${source.from} resolved)`
    };
  const peer = {
    ...base,
    peerId: rendered.id,
    peerSource: `${rendered.template} of ${describeVariable(rendered.template, scan)} (peer source: ${source.from})`
  };
  if (input.earlierIds !== true) return peer;
  const earlier = [earlierGitIdOf(scan), variables.cwd].filter(
    (id) => id !== void 0 && id !== "" && id !== rendered.id && isValidPeerId(id)
  );
  return { ...peer, earlierPeerIds: [...new Set(earlier)] };
}
function peerSourceOf(input, config) {
  const knob = input.settings.peerSource;
  const knobValue = knob.length === 1 ? knob[0] : knob.length === 0 ? void 0 : knob;
  const origin = input.peerSourceOrigin ?? (knob.length > 0 ? "env:OPENVIKING_PEER_SOURCE" : "default");
  if (origin.startsWith("env:")) return { value: knobValue, from: "OPENVIKING_PEER_SOURCE" };
  if (config?.values.peerSource !== void 0)
    return { value: config.values.peerSource, from: originText(config, "peerSource") };
  if (knob.length > 0) return { value: knobValue, from: origin.replace(/^file:/, "") };
  return { value: void 0, from: "default git" };
}
function describeVariable(template, scan) {
  if (template.includes("{git_remote}")) return `origin ${scan.remote}`;
  if (template.includes("{git_root}"))
    return `the repository at ${scan.root?.git ? mainCheckout(scan.root.git) : "?"} (no usable origin)`;
  if (template.includes("{dir}")) return `the workspace folder ${scan.root?.root ?? "?"}`;
  return template.includes("{cwd}") ? "the working folder" : "the template itself";
}
function explicitPeer(credentials, warnings) {
  const peerId = credentials.peerId?.trim();
  if (!peerId) return void 0;
  const source = credentials.sources.peerId ?? "configuration";
  if (!isValidPeerId(peerId)) {
    warnings.push(`${source}: peer id "${peerId.slice(0, 40)}" does not match ^[a-zA-Z0-9_.@-]+$; ignoring it`);
    return void 0;
  }
  return { peerId, source, fromEnv: source.startsWith("env:") };
}

// src/mcp/identityFetch.ts
function applyIdentityHeaders(headers, credentials, userAgent, actorPeer = credentials.peerId) {
  const values = [
    ["authorization", credentials.apiKey ? `Bearer ${credentials.apiKey}` : void 0],
    ["x-openviking-account", credentials.account],
    ["x-openviking-user", credentials.user],
    ["x-openviking-actor-peer", actorPeer],
    ["user-agent", userAgent]
  ];
  for (const [name, value] of values) {
    const trimmed = value?.trim();
    if (trimmed) headers.set(name, trimmed);
    else headers.delete(name);
  }
}
function identityFetchFor(options) {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    const current = options.config.current();
    const { credentials } = current;
    const project = options.project;
    const peer = project ? projectFor(current, project.workspace, project.homeDir, options.now()).project.peerId : credentials.peerId;
    applyIdentityHeaders(headers, credentials, options.userAgent, peer);
    const isPost = (init?.method ?? "GET").toUpperCase() === "POST";
    const timeout = AbortSignal.timeout(current.settings.timeoutMs);
    const signal = isPost ? init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout : init?.signal;
    return options.fetch(url, { ...init, headers, ...signal ? { signal } : {} });
  };
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
    return new Promise((resolve5) => queue.push(resolve5));
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
var loadSdkSession = async (options) => (await import("./chunks/sdkSession-TULY4I5J.mjs")).openSdkSession(options);
function createUpstream(options) {
  const sessions = new UpstreamSessions(options);
  const { config, log } = options;
  const semaphore = createSemaphore(options.maxConcurrent);
  return {
    request(method, params, callOptions = {}) {
      if (sessions.closed) return Promise.reject(new UpstreamError({ kind: "cancelled" }));
      return semaphore.run(async () => {
        sessions.refreshConfig();
        const budgetMs = callOptions.timeoutMs ?? config.current().settings.timeoutMs;
        const deadline = options.now() + budgetMs;
        const attempt = () => sessions.attempt(method, params, deadline, callOptions.signal);
        try {
          try {
            return await attempt();
          } catch (error) {
            const failure = failureOf(error);
            if (!shouldRetry(failure, () => sessions.refreshConfig())) throw error;
            log.debug("retrying upstream call once", {
              method,
              reason: failure.kind === "http" ? failure.status : failure.kind
            });
            return await attempt();
          }
        } catch (error) {
          throw reportBudget(error, budgetMs);
        }
      });
    },
    syncConfig: () => sessions.refreshConfig(),
    warmUp: () => sessions.warmUp(),
    close: () => sessions.close()
  };
}
var UpstreamSessions = class {
  constructor(options) {
    this.options = options;
    this.openSession = options.openSession ?? loadSdkSession;
    this.identityFetch = identityFetchFor(options);
  }
  options;
  closed = false;
  link;
  openSession;
  identityFetch;
  /** One try of a call on the current link, within `deadline`; a failure that breaks the link retires it. */
  async attempt(method, params, deadline, signal) {
    const remaining = () => deadline - this.options.now();
    const timedOut = () => new UpstreamError({ kind: "timeout", timeoutMs: this.defaultTimeout() });
    if (remaining() <= 0) throw timedOut();
    const target = this.current(remaining());
    target.inFlight += 1;
    try {
      const session = await target.session;
      if (remaining() <= 0) throw timedOut();
      return await session.request(method, params, { timeoutMs: remaining(), ...signal ? { signal } : {} });
    } catch (error) {
      if (breaksLink(failureOf(error))) this.retire(target);
      throw error;
    } finally {
      target.inFlight -= 1;
      this.closeIfIdle(target);
    }
  }
  /** Re-reads the configuration when a file changed; a changed MCP URL retires the link. True when it did. */
  refreshConfig() {
    if (!this.options.config.refresh()) return false;
    this.options.log.debug("configuration reloaded");
    if (this.link && this.link.mcpUrl !== this.options.config.current().credentials.mcpUrl) this.retire(this.link);
    return true;
  }
  warmUp() {
    if (this.closed) return;
    this.refreshConfig();
    this.current(this.defaultTimeout()).session.catch(
      (error) => this.options.log.debug("upstream not reachable yet", { failure: failureOf(error).kind })
    );
  }
  async close() {
    this.closed = true;
    const last = this.link;
    this.link = void 0;
    if (!last) return;
    const closing = last.session.then(
      (session) => session.close(),
      () => void 0
    );
    await Promise.race([closing, new Promise((resolve5) => setTimeout(resolve5, CLOSE_BUDGET_MS).unref())]);
  }
  defaultTimeout() {
    return this.options.config.current().settings.timeoutMs;
  }
  /** The open link, or a new one to the configured MCP URL. */
  current(timeoutMs) {
    if (this.link && !this.link.retired) return this.link;
    const { options } = this;
    const mcpUrl = options.config.current().credentials.mcpUrl;
    let fresh;
    const session = this.openSession({
      mcpUrl,
      fetch: this.identityFetch,
      clientInfo: options.clientInfo,
      timeoutMs,
      onNotification: options.onNotification,
      onClosed: () => this.retire(fresh),
      onError: (message) => options.log.debug("upstream transport error", { message })
    });
    fresh = { mcpUrl, session, inFlight: 0, retired: false };
    session.then(
      (opened) => {
        options.log.debug("upstream session opened", { mcpUrl: displayUrl(mcpUrl, true) });
        options.onProfile(mcpUrl, opened.profile);
      },
      () => this.retire(fresh)
    );
    this.link = fresh;
    return fresh;
  }
  retire(target) {
    if (!target || target.retired) return;
    target.retired = true;
    if (this.link === target) this.link = void 0;
    this.closeIfIdle(target);
  }
  /** A retired link is closed once its last call has settled. */
  closeIfIdle(target) {
    if (target.retired && target.inFlight === 0)
      void target.session.then(
        (session) => session.close(),
        () => void 0
      );
  }
};
function breaksLink(failure) {
  return failure.kind === "network" || failure.kind === "protocol" || failure.kind === "http" && (failure.status === 400 || failure.status === 404);
}
function reportBudget(error, budgetMs) {
  return error instanceof UpstreamError && error.failure.kind === "timeout" && error.failure.timeoutMs !== budgetMs ? new UpstreamError({ kind: "timeout", timeoutMs: budgetMs }) : error;
}
function failureOf(error) {
  return error instanceof UpstreamError ? error.failure : { kind: "protocol", message: errorMessage(error) };
}
function shouldRetry(failure, refreshConfig) {
  if (failure.kind !== "http") return false;
  if (failure.status === 400 || failure.status === 404) return true;
  if (failure.status === 401 || failure.status === 403) return refreshConfig();
  return false;
}

// src/session/bypass.ts
function bypassMatch(settings, sessionId, cwd) {
  if (settings.bypassSession) return { by: "switch" };
  for (const raw of settings.bypassPatterns) {
    const pattern = raw.trim();
    if (pattern === "") continue;
    const regex = globToRegExp(pattern);
    if (typeof sessionId === "string" && sessionId !== "" && regex.test(sessionId))
      return { by: "pattern", pattern, subject: "session" };
    if (typeof cwd === "string" && cwd !== "" && regex.test(cwd)) return { by: "pattern", pattern, subject: "folder" };
  }
  return void 0;
}
function globToRegExp(glob) {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === "*" && glob[index + 1] === "*") {
      const atStart = index === 0 || glob[index - 1] === "/";
      const atEnd = index + 2 === glob.length;
      if (atStart && glob[index + 2] === "/") {
        source += "(?:.*/)?";
        index += 2;
      } else if (atEnd && source.endsWith("\\/")) {
        source = `${source.slice(0, -2)}(?:/.*)?`;
        index++;
      } else {
        source += ".*";
        index++;
      }
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

// src/session/switches.ts
function scopeOf(config, workspace, homeDir, now, sessionId) {
  const { project } = projectFor(config, workspace, homeDir, now);
  return { config, project, workspace, ...sessionId !== void 0 ? { sessionId } : {} };
}
function memoryOffReason(scope) {
  const off = switchedOff(scope, "enabled");
  if (off !== void 0) return off;
  const bypass = bypassMatch(scope.config.settings, scope.sessionId, scope.workspace);
  if (bypass === void 0) return void 0;
  if (bypass.by === "switch") return settingText(scope.config, "bypassSession", "on");
  const where = bypass.subject === "folder" ? "this folder" : "this session's id";
  return `${where} matches the bypass pattern "${bypass.pattern}" (${sourceText(scope.config, "bypassPatterns")})`;
}
function switchedOff(scope, key) {
  const byWorkspace = scope.project.off[key];
  if (byWorkspace !== void 0) return byWorkspace;
  return scope.config.settings[key] ? void 0 : settingText(scope.config, key, "false");
}
function settingText(config, key, shown) {
  const unclear = config.failedClosed?.[key];
  if (unclear !== void 0) return `${unclear} (not true or false: read as ${shown})`;
  const source = config.settingSources?.[key];
  const file = fileOf(source);
  return file === void 0 ? `${KNOB_TABLE[key].env}=${shown}` : `plugin.codebuddy.${key}: ${shown} in ${file}`;
}
function sourceText(config, key) {
  const file = fileOf(config.settingSources?.[key]);
  return file === void 0 ? KNOB_TABLE[key].env : `plugin.codebuddy.${key} in ${file}`;
}
function fileOf(source) {
  if (source === void 0 || !source.startsWith("file:")) return void 0;
  const hash = source.indexOf("#");
  return source.slice("file:".length, hash === -1 ? void 0 : hash);
}

// src/mcp/offAnswers.ts
function memoryOffText(reason) {
  return `OpenViking memory is off here (${reason}): nothing was sent to the server. It works again once that switch is turned back on.`;
}
var MemoryOffError = class extends Error {
  constructor(reason) {
    super(memoryOffText(reason));
    this.reason = reason;
    this.name = "MemoryOffError";
  }
  reason;
};
function toolsOffText(why, instead) {
  return `This plugin's OpenViking MCP tools are off (${why}): nothing was sent. Use the same tool of your own OpenViking MCP server instead (${instead}).`;
}
var ToolsOffError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "ToolsOffError";
  }
};

// src/protocol/hostTools.ts
function hostFromEnv(env) {
  if (env.CODEBUDDY_PLUGIN_ROOT) return "codebuddy";
  return env.CLAUDE_PLUGIN_ROOT ? "claude-code" : "codebuddy";
}
var PLUGIN = "openviking";
function mcpToolName(host, tool) {
  return host === "claude-code" ? `mcp__plugin_${PLUGIN}_${PLUGIN}__${tool}` : `mcp__${PLUGIN}__${tool}`;
}
function toolNamesFor(host, choice) {
  if (choice === void 0 || choice.mcpEnabled)
    return { host, bundled: true, name: (tool) => mcpToolName(host, tool) };
  const prefix = userToolPrefix(choice.mcpServer);
  return { host, bundled: false, name: (tool) => `${prefix}${tool}` };
}
function userToolPrefix(server) {
  const value = server.trim();
  const literal = value.startsWith("mcp__");
  const name = (literal ? value : `mcp__${value}`).replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return name.endsWith("__") ? name : `${name}__`;
}

// src/mcp/proxy.ts
var DEFAULT_MAX_CONCURRENT = 16;
function createProxy(options) {
  const { log, config } = logAndConfig(options);
  const host = new HostLink(options.stdout, log);
  const parts = proxyParts(options, log, config, host);
  host.listen(options.stdin, {
    answer: (request, signal) => answer(parts, request, signal),
    toRpcError: (error) => toRpcError(parts, error),
    onClose: () => parts.upstream.close().catch((error) => log.debug("upstream close failed", { error: describeError(error) }))
  });
  return { log, closed: host.closed, close: () => host.close() };
}
function logAndConfig(options) {
  let watch;
  const log = createStderrLog({
    write: options.writeStderr,
    now: options.now,
    debugEnabled: () => watch?.current().settings.debug ?? false,
    secrets: () => [watch?.current().credentials.apiKey]
  });
  watch = createConfigWatch({
    load: options.loadConfig,
    env: options.env,
    homeDir: options.homeDir,
    warn: (message) => log.warn(message)
  });
  return { log, config: watch };
}
function proxyParts(options, log, config, host) {
  const cacheDir = options.cacheDir === null ? void 0 : options.cacheDir ?? join12(resolveDataDir(options.env, options.homeDir), "cache");
  const snapshots = createSnapshotStore({ cacheDir, now: options.now, warn: (message) => log.warn(message) });
  const mcpUrl = () => config.current().credentials.mcpUrl;
  void snapshots.load(mcpUrl());
  const notify = host.notify.bind(host);
  const upstream = createUpstream({
    config,
    fetch: options.fetch,
    userAgent: options.userAgent,
    clientInfo: { name: options.serverInfo.name, version: options.serverInfo.version },
    maxConcurrent: options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    now: options.now,
    log,
    onNotification: notify,
    onProfile: (url, profile) => {
      void snapshots.update(url, { profile });
      discovery.onReconnected();
    },
    ...options.workspace !== void 0 ? { project: { workspace: options.workspace, homeDir: options.homeDir } } : {}
  });
  const discovery = createDiscovery({
    request: (method, params, callOptions) => upstream.request(method, params, callOptions),
    snapshots,
    mcpUrl,
    timeoutMs: () => config.current().settings.timeoutMs,
    notify,
    log
  });
  const switches = switchesHere(options, config, upstream);
  return { options, log, config, snapshots, upstream, discovery, switches, mcpUrl };
}
function switchesHere(options, config, upstream) {
  let wasOff = false;
  return {
    memoryOff() {
      upstream.syncConfig();
      const current = config.current();
      const scope = options.workspace === void 0 ? { config: current, project: { off: {} } } : scopeOf(current, options.workspace, options.homeDir, options.now());
      const off = memoryOffReason(scope);
      if (off === void 0 && wasOff) setImmediate(() => upstream.warmUp());
      wasOff = off !== void 0;
      return off;
    },
    toolsOff() {
      upstream.syncConfig();
      const current = config.current();
      if (current.settings.mcpEnabled) return void 0;
      const instead = toolNamesFor(hostFromEnv(options.env), current.settings).name("<tool>");
      return toolsOffText(settingText(current, "mcpEnabled", "false"), instead);
    }
  };
}
async function answer(parts, request, signal) {
  switch (request.method) {
    case "initialize": {
      const snapshot = await parts.snapshots.load(parts.mcpUrl());
      if (parts.switches.toolsOff() === void 0 && parts.switches.memoryOff() === void 0)
        setImmediate(() => parts.upstream.warmUp());
      return buildInitializeResult(request.params, snapshot?.profile, parts.options.serverInfo);
    }
    case "ping":
      return {};
    default:
      return forward(parts, request, signal);
  }
}
async function forward(parts, request, signal) {
  const field = listingField(request.method, request.params);
  const toolsOff = parts.switches.toolsOff();
  if (toolsOff !== void 0) {
    parts.log.debug("bundled tools are off; answered locally", { method: request.method });
    if (field !== void 0) return fallbackListing(field);
    if (request.method === "tools/call") return { content: [{ type: "text", text: toolsOff }], isError: true };
    throw new ToolsOffError(toolsOff);
  }
  const off = parts.switches.memoryOff();
  if (off !== void 0) {
    parts.log.debug("memory is off here; answered locally", { method: request.method, reason: off });
    if (field !== void 0) return parts.discovery.answerLocally(request, field);
    if (request.method === "tools/call")
      return { content: [{ type: "text", text: memoryOffText(off) }], isError: true };
    throw new MemoryOffError(off);
  }
  if (field !== void 0) return parts.discovery.answer(request, field, signal);
  return parts.upstream.request(request.method, filterOutboundParams(request.method, request.params), { signal });
}
function toRpcError(parts, error) {
  if (error instanceof MemoryOffError)
    return { code: RpcErrorCode.invalidRequest, message: memoryOffText(error.reason) };
  if (error instanceof ToolsOffError) return { code: RpcErrorCode.invalidRequest, message: error.message };
  if (isUpstreamError(error))
    return failureToRpcError(error.failure, {
      mcpUrl: parts.mcpUrl(),
      credentials: parts.config.current().credentials
    });
  parts.log.warn("internal error while handling a request", { error: describeError(error) });
  return {
    code: RpcErrorCode.internalError,
    message: `OpenViking MCP proxy internal error: ${describeError(error)}`
  };
}

// src/openviking/ipRange.ts
var IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
var HEX_GROUP = /^[0-9a-f]{1,4}$/i;
function ipv4Bytes(text2) {
  const match = IPV4.exec(text2);
  if (match === null) return void 0;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : void 0;
}
function ipv6Groups(side, allowIpv4Tail) {
  if (side === "") return [];
  const parts = side.split(":");
  const groups = [];
  for (const [index, part] of parts.entries()) {
    if (allowIpv4Tail && index === parts.length - 1 && part.includes(".")) {
      const v4 = ipv4Bytes(part);
      if (v4 === void 0) return void 0;
      groups.push((v4[0] ?? 0) << 8 | (v4[1] ?? 0), (v4[2] ?? 0) << 8 | (v4[3] ?? 0));
    } else if (HEX_GROUP.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return void 0;
    }
  }
  return groups;
}
function ipv6Bytes(text2) {
  const halves = text2.split("::");
  if (halves.length > 2) return void 0;
  const head = ipv6Groups(halves[0] ?? "", halves.length === 1);
  const tail = halves.length === 2 ? ipv6Groups(halves[1] ?? "", true) : [];
  if (head === void 0 || tail === void 0) return void 0;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return void 0;
  const groups = [...head, ...new Array(missing).fill(0), ...tail];
  return groups.flatMap((group) => [group >> 8, group & 255]);
}
function ipBytes(text2) {
  return text2.includes(":") ? ipv6Bytes(text2) : ipv4Bytes(text2);
}
function parseIpRange(text2) {
  const slash = text2.indexOf("/");
  const bytes = ipBytes(slash === -1 ? text2 : text2.slice(0, slash));
  if (bytes === void 0) return void 0;
  const bits = bytes.length * 8;
  if (slash === -1) return { bytes, prefix: bits };
  const prefixText = text2.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return void 0;
  return { bytes, prefix: Number(prefixText) };
}
function ipInRange(address, range) {
  if (address.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const index = bit / 8;
    const mask = range.prefix - bit >= 8 ? 255 : 255 << 8 - (range.prefix - bit) & 255;
    if (((address[index] ?? 0) & mask) !== ((range.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

// src/openviking/proxy.ts
var DEFAULT_PORTS2 = { "http:": 80, "https:": 443 };
function either(env, lower, upper) {
  return env[lower] ?? env[upper];
}
function proxySettings(env) {
  const http = either(env, "http_proxy", "HTTP_PROXY") || void 0;
  const all = either(env, "all_proxy", "ALL_PROXY") || void 0;
  const https = either(env, "https_proxy", "HTTPS_PROXY") || http;
  if (http === void 0 && https === void 0 && all === void 0) return void 0;
  const noProxyText = either(env, "no_proxy", "NO_PROXY") ?? "";
  const entries = noProxyText.split(/[,\s]+/).filter((entry) => entry !== "");
  return {
    ...(http ?? all) === void 0 ? {} : { http: http ?? all },
    ...(https ?? all) === void 0 ? {} : { https: https ?? all },
    noProxy: entries.filter((entry) => entry !== "*").map(parseNoProxyEntry),
    bypassAll: entries.includes("*")
  };
}
function parseNoProxyEntry(entry) {
  let host = entry;
  let port = 0;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) {
    host = bracketed[1] ?? "";
    port = Number(bracketed[2] ?? 0);
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const withPort = /^(.+):(\d+)$/.exec(entry);
    if (withPort !== null) {
      host = withPort[1] ?? "";
      port = Number(withPort[2]);
    }
  }
  const range = parseIpRange(host);
  return { host: host.replace(/^\*?\./, "").toLowerCase(), port, ...range === void 0 ? {} : { range } };
}
function bareHost(url) {
  const host = url.hostname.toLowerCase();
  return host.startsWith("[") ? host.slice(1, -1) : host;
}
function shouldProxy(url, settings) {
  if (settings.bypassAll) return false;
  const host = bareHost(url);
  const port = Number(url.port) || DEFAULT_PORTS2[url.protocol] || 0;
  const address = settings.noProxy.some((entry) => entry.range !== void 0) ? ipBytes(host) : void 0;
  const exempts = (entry) => {
    if (entry.port !== 0 && entry.port !== port) return false;
    if (entry.range !== void 0) return address !== void 0 && ipInRange(address, entry.range);
    return host === entry.host || host.endsWith(`.${entry.host}`);
  };
  return !settings.noProxy.some(exempts);
}
function proxyRoute(target, settings) {
  if (settings === void 0) return void 0;
  const text2 = target.protocol === "https:" ? settings.https : settings.http;
  if (text2 === void 0 || !shouldProxy(target, settings)) return void 0;
  const proxy = parseProxyUrl(text2);
  const authorization = proxy.username === "" && proxy.password === "" ? void 0 : `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")}`;
  return { proxy: new URL(proxy.origin), ...authorization === void 0 ? {} : { authorization } };
}
function parseProxyUrl(text2) {
  const unusable = (why) => Object.assign(new Error(`${why} (proxy ${displayUrl(text2)} in the environment)`), { unsupported: true });
  let url;
  try {
    url = new URL(text2.includes("://") ? text2 : `http://${text2}`);
  } catch {
    throw unusable("invalid proxy URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw unusable(`unsupported proxy scheme ${url.protocol} (only http:// and https:// proxies)`);
  if (`${url.pathname}${url.search}${url.hash}`.includes("@"))
    throw unusable('invalid proxy URL: its user or password holds an unencoded "/", "?" or "#" (percent-encode them)');
  return url;
}

// src/mcp/proxyFetch.ts
function proxyAwareFetch(env, direct) {
  const settings = proxySettings(env);
  if (settings === void 0) return direct;
  const agents = /* @__PURE__ */ new Map();
  return async (input, init) => {
    const url = new URL(String(input));
    const route = proxyRoute(url, settings);
    if (route === void 0) return direct(input, init);
    const undici = await loadUndici();
    const key = `${route.proxy.href} ${route.authorization ?? ""}`;
    let agent = agents.get(key);
    if (agent === void 0) {
      agent = new undici.ProxyAgent(agentOptions(route));
      agents.set(key, agent);
    }
    return await undici.fetch(url, { ...init, dispatcher: agent });
  };
}
async function loadUndici() {
  const loaded = await import("./chunks/undici-UMJHIAYB.mjs");
  return typeof loaded.ProxyAgent === "function" ? loaded : loaded.default;
}
function agentOptions(route) {
  return {
    uri: route.proxy.href,
    // Absolute form for http targets (curl's way); https always tunnels.
    proxyTunnel: false,
    ...route.authorization === void 0 ? {} : { token: route.authorization }
  };
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
    // CodeBuddy passes stored plugin options as PLUGIN_OPT_<KEY>; without them, read where the CLI stores them.
    loadConfig: () => loadPluginConfig({ env, homeDir, readStoredOptions: true }),
    env,
    homeDir,
    // Through HTTP(S)_PROXY when the environment names one (DESIGN D20); the global fetch otherwise.
    fetch: proxyAwareFetch(env, (url, init) => fetch(url, init)),
    now: Date.now,
    serverInfo: { name: "openviking", version: PLUGIN_VERSION },
    userAgent: USER_AGENT,
    workspace: process.cwd()
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
