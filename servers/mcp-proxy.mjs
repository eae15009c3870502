/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  IDENTITY_HEADER_NAMES,
  KNOB_TABLE,
  PLUGIN_VERSION,
  PROTOCOL_VERSIONS,
  RpcErrorCode,
  SWITCH_WORDS_TEXT,
  USER_AGENT,
  UpstreamError,
  createLineSplitter,
  describeError,
  displayPath,
  displayUrl,
  errorLine,
  expandHome,
  failureToRpcError,
  hash64Hex,
  isRecord,
  isUpstreamError,
  listKnobs,
  loadConfigFile,
  mcpRequestHeaders,
  notificationLine,
  parseMessage,
  parseSwitch,
  projectFor,
  readJson,
  readSmallTextFile,
  resultLine,
  speaksProtocolVersion,
  statQuietly,
  writeJsonAtomic
} from "./chunks/chunk-TGAY6XFG.mjs";
import {
  transportFailureCause
} from "./chunks/chunk-IR6DMAYW.mjs";
import {
  errorCode,
  errorMessage
} from "./chunks/chunk-FYQ2Q3BF.mjs";

// src/mcp/main.ts
import { homedir } from "node:os";

// src/config/configFiles.ts
import { join as join3 } from "node:path";

// src/config/pluginOptions.ts
import { join as join2 } from "node:path";

// src/store/paths.ts
import { isAbsolute, join } from "node:path";
var OVERRIDE_VARIABLE = "OPENVIKING_CODEBUDDY_DATA_DIR";
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  const override = usablePath(env[OVERRIDE_VARIABLE], homeDir);
  if (override !== void 0) return { dir: override, source: `env:${OVERRIDE_VARIABLE}` };
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function codebuddyConfigDir(env, homeDir) {
  return usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir) ?? join(homeDir, ".codebuddy");
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
  const settingsPath = join2(dir, "settings.json");
  const credentialsPath = join2(dir, "credentials.json");
  const settings = loadConfigFile(settingsPath, displayPath(settingsPath, homeDir), readFile);
  const secrets = loadConfigFile(credentialsPath, displayPath(credentialsPath, homeDir), readFile);
  const warnings = [settings.warning, secrets.warning].filter((warning) => warning !== void 0);
  const files = [settings, secrets].filter((file) => file.exists).map((file) => file.path);
  const refused = [settings, secrets].filter((file) => file.exists && file.value === void 0 && file.warning !== void 0).map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? "" }));
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
    if (Object.keys(values).length > 0) return { values, sources, files, warnings, refused };
  }
  return { values: {}, sources: {}, files, warnings, refused };
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
  const at = (override, fallbackName) => expandHome(override ?? join3("~", ".openviking", fallbackName), homeDir);
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

// src/config/credentialMode.ts
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
function refusedFiles(files, more, homeDir) {
  const refused = [
    ...files.filter((file) => file.exists && file.value === void 0 && file.warning !== void 0).map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? "" })),
    ...more
  ];
  return refused.length > 0 ? { refused } : {};
}
function definedOnly(values) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== void 0));
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

// src/mcp/proxy.ts
import { join as join5 } from "node:path";

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
    async answer(request2, field, signal) {
      const url = options.mcpUrl();
      const isTools = request2.method === "tools/list";
      try {
        const result = await options.request(request2.method, request2.params, { signal, timeoutMs: budget() });
        if (isTools && Array.isArray(result.tools)) recordLive(url, result.tools);
        return result;
      } catch (error) {
        if (signal.aborted) throw error;
        const remembered = isTools ? (await snapshots.load(url))?.tools ?? [] : [];
        const unsupported = isUpstreamError(error) && error.failure.kind === "rpc";
        (unsupported ? log.debug : log.warn)(
          `${request2.method} failed upstream; serving ${remembered.length ? "the remembered list" : "an empty list"}`,
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
    async answerLocally(request2, field) {
      const isTools = request2.method === "tools/list";
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
    this.closed = new Promise((resolve) => this.resolveClosed = resolve);
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
  async answerRequest(request2) {
    const handlers = this.handlers;
    if (handlers === void 0) return;
    const controller = new AbortController();
    this.inFlight.set(request2.id, controller);
    try {
      const result = await handlers.answer(request2, controller.signal);
      if (!controller.signal.aborted) this.write(resultLine(request2.id, result));
    } catch (error) {
      if (!controller.signal.aborted) this.write(errorLine(request2.id, handlers.toRpcError(error)));
    } finally {
      if (this.inFlight.get(request2.id) === controller) this.inFlight.delete(request2.id);
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
    const budget = new Promise((resolve) => setTimeout(resolve, STDIN_END_DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...this.pending]), budget]);
    await this.close();
  }
};

// src/mcp/initialize.ts
var DEFAULT_UPSTREAM_CAPABILITIES = Object.freeze({
  tools: {},
  resources: {},
  prompts: {}
});
function negotiateProtocolVersion(requested) {
  return speaksProtocolVersion(requested) ? requested : PROTOCOL_VERSIONS[0];
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

// src/transcript/secretRuleSpec.ts
var TOKEN_START = String.raw`(?<![A-Za-z0-9_-])`;

// src/transcript/contextSecretRules.ts
var CONTEXT_RULES = [
  {
    id: "jwt",
    upstream: ["jwt"],
    kind: "jwt",
    keywords: ["eyj"],
    source: String.raw`${TOKEN_START}eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*`
  },
  {
    id: "bearer-token",
    kind: "bearer-token",
    keywords: ["bearer"],
    source: String.raw`\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*`,
    flags: "i",
    keepPrefix: true
  },
  {
    id: "authorization",
    upstream: ["curl-auth-header"],
    kind: "authorization",
    keywords: ["authorization"],
    source: String.raw`(authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:basic|token|bot|digest|negotiate|ntlm)[ \t]{1,8})[A-Za-z0-9._~+/=-]{6}[A-Za-z0-9._~+/=-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    // `scheme://user:password@host`; the user may be empty (`redis://:pw@host`) and the password may hold `/` (not `:`).
    id: "url-password",
    kind: "url-password",
    keywords: ["://"],
    source: String.raw`(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}://[^\s:/@]{0,128}:)[^\s:@]{1,256}(?=@)`,
    flags: "i",
    keepPrefix: true,
    keep: looksLikePortAndPath
  },
  {
    // `curl -u user:pass`, `--user user:pass` (not `docker run -u 1000:1000`).
    id: "curl-user",
    upstream: ["curl-auth-user"],
    kind: "password",
    keywords: ["-u", "--user"],
    source: String.raw`((?:^|[ \t])(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'@]{1,128}:)[^\s"'@]{1,256}`,
    flags: "m",
    keepPrefix: true,
    keep: (match) => /[ \t=]["']?[0-9]+:[0-9]+$/.test(match)
  },
  {
    // `mysql -u root -pS3cret db` (the password is glued to -p; `-p` alone prompts).
    id: "mysql-password",
    kind: "password",
    keywords: ["mysql", "mariadb"],
    source: String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-p)[^\s-][^\s]*`,
    keepPrefix: true
  },
  {
    id: "sshpass-password",
    kind: "password",
    keywords: ["sshpass"],
    source: String.raw`(\bsshpass[ \t]{1,8}-p[ \t]{0,8}["']?)[^\s"']{1,256}`,
    keepPrefix: true
  },
  // `redis-cli -h cache -a S3cret` (`-a` takes the password; `--pass` is the flag rule below).
  {
    id: "redis-cli-password",
    kind: "password",
    keywords: ["redis-cli"],
    source: String.raw`(\bredis-cli\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-a[ \t]{1,4}["']?)[^\s"'-][^\s"']{0,255}`,
    keepPrefix: true
  },
  {
    // `.netrc`: `machine host login alice password s3cret`, on one line or several.
    id: "netrc-password",
    kind: "password",
    keywords: ["machine"],
    source: String.raw`(\bmachine[ \t]{1,8}[^\s]{1,253}(?:[ \t\r\n]{1,20}(?:login|account|port)[ \t]{1,8}[^\s]{1,256}){0,3}[ \t\r\n]{1,20}password[ \t]{1,8})[^\s]{1,256}`,
    keepPrefix: true
  },
  {
    // Azure DevOps and other personal access tokens in upper-case names: `AZURE_DEVOPS_EXT_PAT=…`, `ADO_PAT: …` (`pat` alone in code is a pattern).
    id: "pat-variable",
    kind: "token",
    keywords: ["_pat"],
    source: String.raw`((?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,60}_PAT["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[^\s"'$<{][^\s"']{7,255}`,
    keepPrefix: true
  },
  {
    // `.pgpass` lines `host:port:database:user:password` (port a number or `*`); gated by the usual ports or the file's name.
    id: "pgpass-password",
    kind: "password",
    keywords: ["pgpass", ":5432:", ":5433:", ":6432:", ":*:"],
    source: String.raw`^((?:[^\s:]{1,253}|\*):(?:[0-9]{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:)[^\s]{1,256}$`,
    flags: "m",
    keepPrefix: true
  },
  {
    // Docker's `~/.docker/config.json`: `"auths": {"registry": {"auth": "<base64 user:password>"}}`.
    id: "docker-config-auth",
    kind: "docker-auth",
    keywords: ['"auth"'],
    source: String.raw`("auth"[ \t]{0,8}:[ \t]{0,8}")[A-Za-z0-9+/]{8}[A-Za-z0-9+/]*={0,2}(?=")`,
    keepPrefix: true
  },
  {
    // `Cookie: session=…; csrftoken=…` and `Set-Cookie:` in headers and curl output: the values.
    id: "cookie",
    kind: "cookie",
    keywords: ["cookie"],
    source: String.raw`(\b(?:set-)?cookie[ \t]{0,4}:[ \t]{0,4})(?=[^\s=;"']{1,128}=)[^\r\n"']{1,4096}`,
    flags: "i",
    keepPrefix: true
  },
  {
    // Azure SAS (`…?sv=…&sig=<base64, URL-encoded>`), also inside `SharedAccessSignature=` connection strings.
    id: "azure-sas",
    kind: "azure-sas",
    keywords: ["sig="],
    source: String.raw`([?&;]sig=)[A-Za-z0-9%+/=]{16}[A-Za-z0-9%+/=]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    // PuTTY `.ppk`: the lines after `Private-Lines: N` (the `Public-Lines` stay).
    id: "putty-private-key",
    kind: "private-key",
    keywords: ["private-lines"],
    source: String.raw`(Private-Lines:[ \t]{0,4}[0-9]{1,3}[ \t]{0,4}\r?\n)(?:[A-Za-z0-9+/=]{1,128}\r?\n){0,63}[A-Za-z0-9+/=]{1,128}(?=\r?\n|$)`,
    keepPrefix: true
  },
  {
    // A PEM private key in base64 (kubeconfig `client-key-data`, Kubernetes secrets): `-----BEGIN <kind> PRIVATE KEY` encoded.
    id: "base64-private-key",
    kind: "private-key",
    keywords: ["ls0tls1crudjtib"],
    source: String.raw`LS0tLS1CRUdJTiB(?:SU0EgUFJJVkFURSBLRVkt|QUklWQVRFIEtFWS0t|FQyBQUklWQVRFIEtFWS0t|PUEVOU1NIIFBSSVZBVEUgS0VZLS0t|EU0EgUFJJVkFURSBLRVkt|FTkNSWVBURUQgUFJJVkFURSBLRVkt|QR1AgUFJJVkFURSBLRVkgQkxPQ0st)[A-Za-z0-9+/=]*`
  },
  {
    // `--password hunter2`, `--api-key abc`, `redis-cli --pass pw` (the `--password=…` form is an assignment, secretNames.ts).
    id: "password-flag",
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
  id: "aws-secret-key-bare",
  kind: "aws-secret-key",
  keywords: ["akia", "asia", "aws"],
  source: String.raw`\b[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
  keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match) && /[0-9/+]/.test(match))
};

// src/transcript/codeSecretRules.ts
var CODE_TOKEN_RULES = [
  {
    id: "github-token",
    upstream: ["github-pat", "github-oauth", "github-app-token", "github-refresh-token"],
    kind: "github-token",
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    source: String.raw`${TOKEN_START}gh[pousr]_[A-Za-z0-9]{36}[A-Za-z0-9]*`
  },
  {
    id: "github-fine-grained-pat",
    upstream: ["github-fine-grained-pat"],
    kind: "github-token",
    keywords: ["github_pat_"],
    source: String.raw`${TOKEN_START}github_pat_[A-Za-z0-9_]{22}[A-Za-z0-9_]*`
  },
  {
    id: "gitlab-token",
    upstream: [
      "gitlab-pat",
      "gitlab-pat-routable",
      "gitlab-ptt",
      "gitlab-deploy-token",
      "gitlab-runner-authentication-token",
      "gitlab-runner-authentication-token-routable",
      "gitlab-scim-token",
      "gitlab-cicd-job-token",
      "gitlab-feed-token",
      "gitlab-feature-flag-client-token",
      "gitlab-incoming-mail-token",
      "gitlab-oauth-app-secret",
      "gitlab-kubernetes-agent-token"
    ],
    kind: "gitlab-token",
    keywords: [
      "glpat-",
      "glptt-",
      "gldt-",
      "glrt-",
      "glsoat-",
      "glcbt-",
      "glft-",
      "glffct-",
      "glimt-",
      "gloas-",
      "glagent-"
    ],
    // A routable token ends in `.<2 version><7 checksum>`, kept with it.
    source: String.raw`${TOKEN_START}gl(?:pat|ptt|dt|rt|soat|cbt|ft|ffct|imt|oas|agent)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*(?:\.[0-9a-z]{9}(?![A-Za-z0-9]))?`
  },
  {
    id: "gitlab-runner-registration-token",
    upstream: ["gitlab-rrt"],
    kind: "gitlab-token",
    keywords: ["gr1348941"],
    source: String.raw`${TOKEN_START}GR1348941[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    id: "gitlab-session-cookie",
    upstream: ["gitlab-session-cookie"],
    kind: "cookie",
    keywords: ["_gitlab_session="],
    source: String.raw`(_gitlab_session=)[0-9a-z]{32}(?![0-9a-z])`,
    keepPrefix: true
  },
  {
    id: "sourcegraph-token",
    upstream: ["sourcegraph-access-token"],
    kind: "sourcegraph-token",
    keywords: ["sgp_"],
    source: String.raw`${TOKEN_START}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}(?![A-Za-z0-9])`
  },
  {
    id: "npm-token",
    upstream: ["npm-access-token"],
    kind: "npm-token",
    keywords: ["npm_"],
    source: String.raw`${TOKEN_START}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`
  },
  {
    id: "pypi-token",
    upstream: ["pypi-upload-token"],
    kind: "pypi-token",
    keywords: ["pypi-ageicHlwaS5vcmc".toLowerCase()],
    source: String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    id: "rubygems-token",
    upstream: ["rubygems-api-token"],
    kind: "rubygems-token",
    keywords: ["rubygems_"],
    source: String.raw`${TOKEN_START}rubygems_[a-f0-9]{48}(?![A-Za-z0-9])`
  },
  {
    // JFrog Artifactory: API keys `AKCp…`, reference tokens (base64 of `reftkn…`).
    id: "artifactory-token",
    upstream: ["artifactory-api-key", "artifactory-reference-token"],
    kind: "artifactory-token",
    keywords: ["akcp", "cmvmd"],
    source: String.raw`(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})(?![A-Za-z0-9])`
  },
  {
    id: "shopify-token",
    upstream: [
      "shopify-access-token",
      "shopify-custom-access-token",
      "shopify-private-app-access-token",
      "shopify-shared-secret"
    ],
    kind: "shopify-token",
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    source: String.raw`${TOKEN_START}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])`
  },
  {
    id: "docker-token",
    kind: "docker-token",
    keywords: ["dckr_pat_"],
    source: String.raw`dckr_pat_[A-Za-z0-9_-]{27}[A-Za-z0-9_-]*`
  },
  {
    id: "atlassian-token",
    upstream: ["atlassian-api-token"],
    kind: "atlassian-token",
    keywords: ["atatt3"],
    source: String.raw`ATATT3[A-Za-z0-9_=-]{60}[A-Za-z0-9_=-]*`
  },
  {
    id: "linear-key",
    upstream: ["linear-api-key"],
    kind: "linear-key",
    keywords: ["lin_api_"],
    source: String.raw`lin_api_[A-Za-z0-9]{40}`
  },
  {
    id: "postman-key",
    upstream: ["postman-api-token"],
    kind: "postman-key",
    keywords: ["pmak-"],
    source: String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}`
  },
  {
    id: "terraform-token",
    upstream: ["hashicorp-tf-api-token"],
    kind: "terraform-token",
    keywords: [".atlasv1."],
    source: String.raw`${TOKEN_START}[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`
  },
  {
    // The prefixed SonarQube tokens (user, project, analysis); gitleaks finds them only beside the word `sonar`.
    id: "sonarqube-token",
    upstream: ["sonar-api-token"],
    kind: "sonarqube-token",
    keywords: ["squ_", "sqp_", "sqa_"],
    source: String.raw`${TOKEN_START}sq[upa]_[a-f0-9]{40}(?![A-Za-z0-9])`
  },
  {
    id: "harness-token",
    upstream: ["harness-api-key"],
    kind: "harness-token",
    keywords: ["pat.", "sat."],
    source: String.raw`${TOKEN_START}[ps]at\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}(?![A-Za-z0-9])`
  },
  {
    id: "infracost-token",
    upstream: ["infracost-api-token"],
    kind: "infracost-token",
    keywords: ["ico-"],
    source: String.raw`${TOKEN_START}ico-[A-Za-z0-9]{32}(?![A-Za-z0-9])`
  },
  {
    id: "prefect-token",
    upstream: ["prefect-api-token"],
    kind: "prefect-token",
    keywords: ["pnu_"],
    source: String.raw`${TOKEN_START}pnu_[A-Za-z0-9]{36}(?![A-Za-z0-9])`
  },
  {
    id: "clojars-token",
    upstream: ["clojars-api-token"],
    kind: "clojars-token",
    keywords: ["clojars_"],
    source: String.raw`${TOKEN_START}CLOJARS_[a-z0-9]{60}(?![A-Za-z0-9])`,
    flags: "i"
  },
  {
    id: "readme-token",
    upstream: ["readme-api-token"],
    kind: "readme-token",
    keywords: ["rdme_"],
    source: String.raw`${TOKEN_START}rdme_[a-z0-9]{70}(?![A-Za-z0-9])`
  }
];

// src/transcript/secretRules.ts
var TOKEN_RULES = [
  // AI providers. Anthropic before OpenAI: both start with `sk-`.
  {
    id: "anthropic-key",
    upstream: ["anthropic-api-key", "anthropic-admin-api-key"],
    kind: "anthropic-key",
    keywords: ["sk-ant-"],
    source: String.raw`${TOKEN_START}sk-ant-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    // OpenRouter (not in gitleaks): `sk-or-v1-` and 64 hex; the OpenAI rule would not take it (`or-` breaks its run).
    id: "openrouter-key",
    kind: "openrouter-key",
    keywords: ["sk-or-v1-"],
    source: String.raw`${TOKEN_START}sk-or-v1-[a-f0-9]{64}(?![A-Za-z0-9])`
  },
  {
    // `sk-proj-…`/`sk-svcacct-…` may hold `-` and `_`; a bare `sk-` key is one alphanumeric run (not `sk-learn-…`).
    id: "openai-key",
    upstream: ["openai-api-key"],
    kind: "openai-key",
    keywords: ["sk-"],
    source: String.raw`${TOKEN_START}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|[A-Za-z0-9]{20}[A-Za-z0-9]*(?![A-Za-z0-9_-]))`
  },
  { id: "groq-key", kind: "groq-key", keywords: ["gsk_"], source: String.raw`${TOKEN_START}gsk_[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { id: "xai-key", kind: "xai-key", keywords: ["xai-"], source: String.raw`${TOKEN_START}xai-[A-Za-z0-9]{60}[A-Za-z0-9]*` },
  {
    id: "perplexity-key",
    upstream: ["perplexity-api-key"],
    kind: "perplexity-key",
    keywords: ["pplx-"],
    source: String.raw`${TOKEN_START}pplx-[A-Za-z0-9]{40}[A-Za-z0-9]*`
  },
  {
    id: "replicate-token",
    kind: "replicate-token",
    keywords: ["r8_"],
    source: String.raw`${TOKEN_START}r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])`
  },
  {
    id: "huggingface-token",
    upstream: ["huggingface-access-token"],
    kind: "huggingface-token",
    keywords: ["hf_"],
    source: String.raw`${TOKEN_START}hf_[A-Za-z0-9]{30}[A-Za-z0-9]*`
  },
  {
    id: "huggingface-org-token",
    upstream: ["huggingface-organization-api-token"],
    kind: "huggingface-token",
    keywords: ["api_org_"],
    source: String.raw`${TOKEN_START}api_org_[A-Za-z]{34}(?![A-Za-z0-9])`
  },
  {
    // LangSmith (LangChain's tracing; not in gitleaks): `lsv2_pt_` personal, `lsv2_sk_` service keys.
    id: "langsmith-key",
    kind: "langsmith-key",
    keywords: ["lsv2_"],
    source: String.raw`${TOKEN_START}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])`
  },
  {
    // Amazon Bedrock API keys: long-lived `ABSK…` (base64), short-lived a presigned URL in base64 after a fixed head.
    id: "aws-bedrock-key",
    upstream: ["aws-amazon-bedrock-api-key-long-lived", "aws-amazon-bedrock-api-key-short-lived"],
    kind: "aws-bedrock-key",
    keywords: ["absk", "bedrock-api-key-"],
    source: String.raw`(?<![A-Za-z0-9+/-])(?:ABSK[A-Za-z0-9+/]{109}[A-Za-z0-9+/]*={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]*)`
  },
  // Payments.
  {
    id: "stripe-key",
    upstream: ["stripe-access-token"],
    kind: "stripe-key",
    keywords: ["_live_", "_test_", "_prod_"],
    source: String.raw`${TOKEN_START}[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{10}[A-Za-z0-9]*`
  },
  {
    id: "stripe-webhook-secret",
    kind: "stripe-webhook-secret",
    keywords: ["whsec_"],
    source: String.raw`${TOKEN_START}whsec_[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*`
  },
  {
    id: "square-token",
    upstream: ["square-access-token"],
    kind: "square-token",
    keywords: ["sq0atp-", "sq0csp-"],
    source: String.raw`${TOKEN_START}sq0(?:atp|csp)-[A-Za-z0-9_-]{22}[A-Za-z0-9_-]*`
  },
  // Clouds.
  {
    id: "aws-access-key",
    upstream: ["aws-access-token"],
    kind: "aws-access-key",
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    source: String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`
  },
  {
    id: "aws-session-token",
    kind: "aws-session-token",
    keywords: ["iqojb3jpz2lu", "fwogzxivyxdz", "aqodyxdz"],
    source: String.raw`(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|AQoDYXdz)[A-Za-z0-9+/=]{20}[A-Za-z0-9+/=]*`
  },
  {
    id: "aws-secret-key-named",
    kind: "aws-secret-key",
    keywords: ["aws_secret_access_key", "secretaccesskey"],
    source: String.raw`((?:aws_secret_access_key|SecretAccessKey)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    flags: "i",
    keepPrefix: true
  },
  {
    id: "alibaba-access-key",
    upstream: ["alibaba-access-key-id"],
    kind: "alibaba-access-key",
    keywords: ["ltai"],
    source: String.raw`${TOKEN_START}LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])`
  },
  {
    id: "google-api-key",
    upstream: ["gcp-api-key"],
    kind: "google-api-key",
    keywords: ["aiza"],
    source: String.raw`${TOKEN_START}AIza[A-Za-z0-9_-]{35}`
  },
  {
    id: "google-oauth-secret",
    kind: "google-oauth-secret",
    keywords: ["gocspx-"],
    source: String.raw`${TOKEN_START}GOCSPX-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    id: "google-oauth-token",
    kind: "google-oauth-token",
    keywords: ["ya29."],
    source: String.raw`${TOKEN_START}ya29\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`
  },
  {
    id: "google-refresh-token",
    kind: "google-refresh-token",
    keywords: ["1//0"],
    source: String.raw`(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{30}[A-Za-z0-9_-]*`
  },
  {
    id: "azure-client-secret",
    upstream: ["azure-ad-client-secret"],
    kind: "azure-client-secret",
    keywords: ["q~"],
    source: String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`
  },
  {
    id: "digitalocean-token",
    upstream: ["digitalocean-access-token", "digitalocean-pat", "digitalocean-refresh-token"],
    kind: "digitalocean-token",
    keywords: ["_v1_"],
    source: String.raw`${TOKEN_START}do[por]_v1_[a-f0-9]{64}`
  },
  {
    // Vercel (not in gitleaks; its changelog names the prefixes: personal, integration, app access, app refresh, API key).
    id: "vercel-token",
    kind: "vercel-token",
    keywords: ["vcp_", "vci_", "vca_", "vcr_", "vck_"],
    source: String.raw`${TOKEN_START}vc[piark]_[A-Za-z0-9]{24}[A-Za-z0-9]*`
  },
  {
    id: "databricks-token",
    upstream: ["databricks-api-token"],
    kind: "databricks-token",
    keywords: ["dapi"],
    source: String.raw`${TOKEN_START}dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])`
  },
  { id: "supabase-token", kind: "supabase-token", keywords: ["sbp_"], source: String.raw`${TOKEN_START}sbp_[a-f0-9]{40}` },
  {
    id: "openshift-token",
    upstream: ["openshift-user-token"],
    kind: "openshift-token",
    keywords: ["sha256~"],
    source: String.raw`${TOKEN_START}sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`
  },
  {
    id: "cloudflare-origin-ca-key",
    upstream: ["cloudflare-origin-ca-key"],
    kind: "cloudflare-key",
    keywords: ["v1.0-"],
    source: String.raw`${TOKEN_START}v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![A-Za-z0-9])`
  },
  {
    id: "pulumi-token",
    upstream: ["pulumi-api-token"],
    kind: "pulumi-token",
    keywords: ["pul-"],
    source: String.raw`${TOKEN_START}pul-[a-f0-9]{40}(?![A-Za-z0-9])`
  }
];

// src/transcript/serviceSecretRules.ts
var SERVICE_TOKEN_RULES = [
  // Chat and docs, mail, monitoring, secrets managers.
  {
    id: "slack-token",
    upstream: [
      "slack-bot-token",
      "slack-user-token",
      "slack-legacy-token",
      "slack-legacy-bot-token",
      "slack-legacy-workspace-token",
      "slack-config-access-token",
      "slack-config-refresh-token"
    ],
    kind: "slack-token",
    keywords: ["xox"],
    source: String.raw`(?<![A-Za-z0-9-])xox[abposre]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`
  },
  {
    id: "slack-app-token",
    upstream: ["slack-app-token"],
    kind: "slack-token",
    keywords: ["xapp-"],
    source: String.raw`(?<![A-Za-z0-9-])xapp-[0-9]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`
  },
  {
    id: "slack-webhook",
    upstream: ["slack-webhook-url"],
    kind: "slack-webhook",
    keywords: ["hooks.slack.com"],
    source: String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/+-]{8}[A-Za-z0-9_/+-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    id: "discord-webhook",
    kind: "discord-webhook",
    keywords: ["/api/webhooks/"],
    source: String.raw`(discord(?:app)?\.com/api/webhooks/)[0-9]{5,30}/[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    // Microsoft Teams incoming webhooks: the path after `webhookb2/` is the credential.
    id: "teams-webhook",
    upstream: ["microsoft-teams-webhook"],
    kind: "teams-webhook",
    keywords: ["webhook.office.com"],
    source: String.raw`(\.webhook\.office\.com/webhookb2/)[A-Za-z0-9@/-]{20}[A-Za-z0-9@/-]*`,
    flags: "i",
    keepPrefix: true
  },
  {
    id: "notion-token",
    upstream: ["notion-api-token"],
    kind: "notion-token",
    keywords: ["ntn_"],
    source: String.raw`${TOKEN_START}ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])`
  },
  {
    id: "telegram-bot-token",
    upstream: ["telegram-bot-api-token"],
    kind: "telegram-bot-token",
    keywords: [":aa"],
    source: String.raw`(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`
  },
  {
    id: "sendgrid-key",
    upstream: ["sendgrid-api-token"],
    kind: "sendgrid-key",
    keywords: ["sg."],
    source: String.raw`(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,50}`
  },
  {
    id: "mailgun-key",
    upstream: ["mailgun-private-api-token"],
    kind: "mailgun-key",
    keywords: ["key-"],
    source: String.raw`${TOKEN_START}key-[a-f0-9]{32}(?![A-Za-z0-9])`
  },
  {
    id: "mailchimp-key",
    upstream: ["mailchimp-api-key"],
    kind: "mailchimp-key",
    keywords: ["-us"],
    source: String.raw`(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])`
  },
  {
    id: "twilio-key",
    upstream: ["twilio-api-key"],
    kind: "twilio-key",
    keywords: ["sk"],
    source: String.raw`(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])`
  },
  {
    id: "sentry-token",
    upstream: ["sentry-org-token", "sentry-user-token"],
    kind: "sentry-token",
    keywords: ["sntrys_", "sntryu_", "sntrus_"],
    source: String.raw`${TOKEN_START}sntr(?:ys|yu|us)_[A-Za-z0-9+/=_-]{30}[A-Za-z0-9+/=_-]*`
  },
  {
    id: "grafana-token",
    upstream: ["grafana-service-account-token", "grafana-cloud-api-token"],
    kind: "grafana-token",
    keywords: ["glsa_", "glc_"],
    source: String.raw`${TOKEN_START}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32}[A-Za-z0-9+/]*={0,2})`
  },
  {
    id: "newrelic-user-key",
    upstream: ["new-relic-user-api-key"],
    kind: "newrelic-key",
    keywords: ["nrak-"],
    source: String.raw`NRAK-[A-Z0-9]{27}`
  },
  {
    // New Relic insert keys and browser keys (the user key `NRAK-` is the rule above).
    id: "newrelic-insert-key",
    upstream: ["new-relic-insert-key", "new-relic-browser-api-token"],
    kind: "newrelic-key",
    keywords: ["nrii-", "nrjs-"],
    source: String.raw`${TOKEN_START}NR(?:II-[A-Za-z0-9-]{32}|JS-[a-f0-9]{19})(?![A-Za-z0-9-])`
  },
  {
    id: "vault-token",
    upstream: ["vault-service-token", "vault-batch-token"],
    kind: "vault-token",
    keywords: ["hvs.", "hvb."],
    source: String.raw`(?<![A-Za-z0-9_.-])hv[sb]\.[A-Za-z0-9_-]{24}[A-Za-z0-9_-]*`
  },
  {
    // Vault's legacy service tokens: `s.` and 24 base62 characters (mixed case and a digit: not a word after `s.`).
    id: "vault-legacy-token",
    upstream: ["vault-service-token"],
    kind: "vault-token",
    keywords: ["s."],
    source: String.raw`(?<![A-Za-z0-9_.-])s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])`,
    keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match.slice(2)) && /[0-9]/.test(match))
  },
  {
    id: "doppler-token",
    upstream: ["doppler-api-token"],
    kind: "doppler-token",
    keywords: ["dp."],
    source: String.raw`(?<![A-Za-z0-9_.-])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_]{40,44}`,
    flags: "i"
  },
  {
    id: "1password-token",
    upstream: ["1password-service-account-token"],
    kind: "1password-token",
    keywords: ["ops_eyj"],
    source: String.raw`ops_eyJ[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}`
  },
  {
    id: "age-secret-key",
    upstream: ["age-secret-key"],
    kind: "age-secret-key",
    keywords: ["age-secret-key-1"],
    source: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}`
  },
  // Deploy and database platforms.
  {
    id: "flyio-token",
    upstream: ["flyio-access-token"],
    kind: "flyio-token",
    keywords: ["fo1_", "fm1a_", "fm1r_", "fm2_"],
    source: String.raw`${TOKEN_START}(?:fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3})`
  },
  {
    id: "heroku-key",
    upstream: ["heroku-api-key-v2"],
    kind: "heroku-key",
    keywords: ["hrku-aa"],
    source: String.raw`${TOKEN_START}HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])`
  },
  {
    id: "planetscale-token",
    upstream: ["planetscale-api-token", "planetscale-oauth-token", "planetscale-password"],
    kind: "planetscale-token",
    keywords: ["pscale_tkn_", "pscale_oauth_", "pscale_pw_"],
    source: String.raw`${TOKEN_START}pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32}[A-Za-z0-9_=.-]*`
  },
  {
    // Grafana's legacy API keys: base64 JSON `{"k":"…`, no dots (a JWT has two).
    id: "grafana-legacy-key",
    upstream: ["grafana-api-key"],
    kind: "grafana-token",
    keywords: ["eyjrijoi"],
    source: String.raw`${TOKEN_START}eyJrIjoi[A-Za-z0-9]{70}[A-Za-z0-9]*={0,3}(?![.])`
  },
  {
    id: "dynatrace-token",
    upstream: ["dynatrace-api-token"],
    kind: "dynatrace-token",
    keywords: ["dt0c01."],
    source: String.raw`${TOKEN_START}dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}(?![A-Za-z0-9])`
  },
  {
    id: "brevo-key",
    upstream: ["sendinblue-api-token"],
    kind: "brevo-key",
    keywords: ["xkeysib-"],
    source: String.raw`${TOKEN_START}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])`
  },
  {
    id: "clickhouse-cloud-key",
    upstream: ["clickhouse-cloud-api-secret-key"],
    kind: "clickhouse-key",
    keywords: ["4b1d"],
    source: String.raw`${TOKEN_START}4b1d[A-Za-z0-9]{38}(?![A-Za-z0-9])`
  },
  {
    id: "maxmind-license-key",
    upstream: ["maxmind-license-key"],
    kind: "maxmind-key",
    keywords: ["_mmk"],
    source: String.raw`${TOKEN_START}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?![A-Za-z0-9])`
  }
];

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
  const sep = separator.trim();
  if (sep === "=" && spaceBefore === "") {
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

// src/transcript/secretKeywords.ts
var ALTERNATION_AFTER = 16384;
function createKeywordGate(keywords) {
  const distinct = [...new Set(keywords)];
  let gated = 0;
  let alternation;
  const byIncludes = (lower) => new Set(distinct.filter((keyword) => lower.includes(keyword)));
  const byAlternation = (lower) => {
    alternation ??= compileAlternation(distinct);
    const { pattern, within } = alternation;
    const found = /* @__PURE__ */ new Set();
    pattern.lastIndex = 0;
    for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
      if (!found.has(match[0])) for (const keyword of within.get(match[0]) ?? []) found.add(keyword);
      pattern.lastIndex = match.index + 1;
    }
    return found;
  };
  return {
    present(lower) {
      gated += lower.length;
      return gated > ALTERNATION_AFTER ? byAlternation(lower) : byIncludes(lower);
    },
    byAlternation,
    byIncludes
  };
}
function compileAlternation(keywords) {
  const longestFirst = [...keywords].sort((a, b) => b.length - a.length);
  const escaped = longestFirst.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const within = new Map(keywords.map((keyword) => [keyword, keywords.filter((inner) => keyword.includes(inner))]));
  return { pattern: new RegExp(escaped.join("|"), "g"), within };
}

// src/transcript/secrets.ts
var SECRET_RULES = [
  ...TOKEN_RULES,
  ...CODE_TOKEN_RULES,
  ...SERVICE_TOKEN_RULES,
  ...CONTEXT_RULES,
  AWS_BARE_SECRET
];
var keywordGate = createKeywordGate([...SECRET_RULES.flatMap((rule) => rule.keywords), ...CREDENTIAL_WORDS]);
var compiled = /* @__PURE__ */ new Map();
function applyTokenRule(text2, spec) {
  let pattern = compiled.get(spec);
  if (pattern === void 0) {
    pattern = new RegExp(spec.source, `g${spec.flags ?? ""}`);
    compiled.set(spec, pattern);
  }
  return text2.replace(pattern, (match, ...groups) => {
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
  const present = keywordGate.present(result.toLowerCase());
  for (const rule of SECRET_RULES) {
    if (rule.keywords.some((keyword) => present.has(keyword))) result = applyTokenRule(result, rule);
  }
  return CREDENTIAL_WORDS.some((word) => present.has(word)) ? redactNamedSecrets(result, redactionMarker) : result;
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
var CREDENTIAL_MARKER = redactionMarker("openviking-credential");

// src/mcp/outbound.ts
var TOOL_FIELDS = {
  remember: [[["messages", "*", "content"], sanitizeText]],
  write: [[["content"], sanitizeText]],
  edit: [[["new_string"], sanitizeText]],
  add_resource: [[["description"], sanitizeText]],
  // A skill's text is stored and indexed like a written file (0.5.2, D39).
  add_skill: [[["data"], sanitizeText]],
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
import { join as join4 } from "node:path";
var SNAPSHOT_VERSION = 1;
function snapshotPath(cacheDir, mcpUrl) {
  return join4(cacheDir, `mcp-upstream-${safeFileKey(mcpUrl)}.json`);
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

// src/mcp/identityFetch.ts
function identityFetchFor(options) {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    const current = options.config.current();
    for (const name of IDENTITY_HEADER_NAMES) headers.delete(name);
    for (const [name, value] of Object.entries(
      mcpRequestHeaders(current, options.project, options.now(), options.userAgent)
    ))
      headers.set(name, value);
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
    return new Promise((resolve) => queue.push(resolve));
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
var loadSdkSession = async (options) => (await import("./chunks/sdkSession-L5E6CX6Q.mjs")).openSdkSession(options);
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
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_BUDGET_MS).unref())]);
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
    answer: (request2, signal) => answer(parts, request2, signal),
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
  const cacheDir = options.cacheDir === null ? void 0 : options.cacheDir ?? join5(resolveDataDir(options.env, options.homeDir), "cache");
  const snapshots = createSnapshotStore({ cacheDir, now: options.now, warn: (message) => log.warn(message) });
  const mcpUrl = () => config.current().credentials.mcpUrl;
  void snapshots.load(mcpUrl());
  const notify = host.notify.bind(host);
  const upstream = createUpstream({
    config,
    fetch: options.fetch,
    userAgent: options.userAgent,
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
async function answer(parts, request2, signal) {
  switch (request2.method) {
    case "initialize": {
      const snapshot = await parts.snapshots.load(parts.mcpUrl());
      if (parts.switches.toolsOff() === void 0 && parts.switches.memoryOff() === void 0)
        setImmediate(() => parts.upstream.warmUp());
      return buildInitializeResult(request2.params, snapshot?.profile, parts.options.serverInfo);
    }
    case "ping":
      return {};
    default:
      return forward(parts, request2, signal);
  }
}
async function forward(parts, request2, signal) {
  const field = listingField(request2.method, request2.params);
  const toolsOff = parts.switches.toolsOff();
  if (toolsOff !== void 0) {
    parts.log.debug("bundled tools are off; answered locally", { method: request2.method });
    if (field !== void 0) return fallbackListing(field);
    if (request2.method === "tools/call") return { content: [{ type: "text", text: toolsOff }], isError: true };
    throw new ToolsOffError(toolsOff);
  }
  const off = parts.switches.memoryOff();
  if (off !== void 0) {
    parts.log.debug("memory is off here; answered locally", { method: request2.method, reason: off });
    if (field !== void 0) return parts.discovery.answerLocally(request2, field);
    if (request2.method === "tools/call")
      return { content: [{ type: "text", text: memoryOffText(off) }], isError: true };
    throw new MemoryOffError(off);
  }
  if (field !== void 0) return parts.discovery.answer(request2, field, signal);
  return parts.upstream.request(request2.method, filterOutboundParams(request2.method, request2.params), { signal });
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
var DEFAULT_PORTS = { "http:": 80, "https:": 443 };
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
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
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
var TUNNEL_OPEN_MS = 3e4;
var NULL_BODY = /* @__PURE__ */ new Set([101, 204, 205, 304]);
function proxyAwareFetch(env, direct) {
  const settings = proxySettings(env);
  if (settings === void 0) return direct;
  const agents = /* @__PURE__ */ new Map();
  const proxied = async (input, init) => {
    const url = new URL(String(input));
    const route = proxyRoute(url, settings);
    if (route === void 0) return direct(input, init);
    const key = `${route.proxy.href} ${route.authorization ?? ""} ${url.protocol === "https:" ? url.host : ""}`;
    let agent = agents.get(key);
    if (agent === void 0) {
      agent = agentFor(url, route);
      agents.set(key, agent);
    }
    return request(url, route, init ?? {}, await agent);
  };
  return proxied;
}
async function agentFor(url, route) {
  const [{ Agent: HttpAgent }, tunnel] = await Promise.all([
    import("node:http"),
    import("./chunks/proxyTunnel-O3TQ77U5.mjs")
  ]);
  const open = () => url.protocol === "https:" ? tunnel.tunnelTls(url, route, TUNNEL_OPEN_MS) : tunnel.connectToProxy(route);
  const agent = new HttpAgent({ keepAlive: true });
  const createConnection = (_options, done) => {
    open().then(
      (socket) => done(null, socket),
      (error) => done(withCode(error))
    );
    return void 0;
  };
  Object.assign(agent, { createConnection });
  return agent;
}
async function request(url, route, init, agent) {
  const [{ request: httpRequest }, { Readable }] = await Promise.all([import("node:http"), import("node:stream")]);
  const headers = {};
  new Headers(init.headers).forEach((value, name) => headers[name] = value);
  const viaProxy = url.protocol === "http:";
  if (viaProxy && route.authorization !== void 0) headers["proxy-authorization"] = route.authorization;
  const signal = init.signal ?? void 0;
  signal?.throwIfAborted();
  if (init.body != null && typeof init.body !== "string") throw new TypeError("fetch failed: only a text body is sent");
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        method: init.method ?? "GET",
        host: url.hostname,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        // Absolute form to the proxy for an http target; origin form inside a tunnel.
        path: viaProxy ? url.href : `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
        ...signal ? { signal } : {}
      },
      (answer2) => {
        const status = answer2.statusCode ?? 502;
        const body = NULL_BODY.has(status) ? null : Readable.toWeb(answer2);
        resolve(new Response(body, { status, statusText: answer2.statusMessage ?? "", headers: answerHeaders(answer2) }));
      }
    );
    outgoing.on("error", (error) => reject(signal?.aborted ? signal.reason : fetchFailed(error)));
    outgoing.end(typeof init.body === "string" ? init.body : void 0);
  });
}
function answerHeaders(answer2) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer2.headers))
    for (const one of Array.isArray(value) ? value : value === void 0 ? [] : [value]) headers.append(name, one);
  return headers;
}
function fetchFailed(error) {
  return new TypeError("fetch failed", { cause: withCode(error) });
}
function withCode(error) {
  if (errorCode(error) !== void 0) return error;
  const code = transportFailureCause(error);
  return Object.assign(new Error(errorMessage(error)), code === void 0 ? {} : { code });
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
