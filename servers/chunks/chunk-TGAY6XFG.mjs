/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  errorMessage
} from "./chunk-FYQ2Q3BF.mjs";

// src/util/json.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return void 0;
  }
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

// src/mcp/jsonRpc.ts
var RpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internalError: -32603,
  /** The reference proxy's code for auth failures and an unreachable server (openviking-api.md §4.2). */
  upstreamUnavailable: -32001,
  /** Any other HTTP error from `/mcp`. */
  upstreamHttp: -32002,
  /** The upstream answered nothing usable. */
  upstreamEmpty: -32003
};
function isId(value) {
  return typeof value === "string" || typeof value === "number" && Number.isFinite(value);
}
function parseMessage(line) {
  const value = parseJson(line);
  if (value === void 0)
    return {
      kind: "invalid",
      id: null,
      error: { code: RpcErrorCode.parseError, message: "Parse error: the line is not JSON" }
    };
  if (!isRecord(value) || value.jsonrpc !== "2.0") {
    const id2 = isRecord(value) && isId(value.id) ? value.id : null;
    return {
      kind: "invalid",
      id: id2,
      error: { code: RpcErrorCode.invalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 object" }
    };
  }
  const params = value.params;
  if (params !== void 0 && !isRecord(params)) {
    const id2 = isId(value.id) ? value.id : null;
    return {
      kind: "invalid",
      id: id2,
      error: { code: RpcErrorCode.invalidRequest, message: "Invalid Request: params must be an object" }
    };
  }
  if (typeof value.method === "string") {
    const body = params === void 0 ? { method: value.method } : { method: value.method, params };
    if (value.id === void 0) return { kind: "notification", notification: body };
    if (isId(value.id)) return { kind: "request", request: { id: value.id, ...body } };
    return {
      kind: "invalid",
      id: null,
      error: { code: RpcErrorCode.invalidRequest, message: "Invalid Request: bad id" }
    };
  }
  if ("result" in value || "error" in value) return { kind: "response" };
  const id = isId(value.id) ? value.id : null;
  return { kind: "invalid", id, error: { code: RpcErrorCode.invalidRequest, message: "Invalid Request: no method" } };
}
function resultLine(id, result) {
  return `${JSON.stringify({ jsonrpc: "2.0", id, result })}
`;
}
function errorLine(id, error) {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error })}
`;
}
function notificationLine(notification) {
  return `${JSON.stringify({ jsonrpc: "2.0", ...notification })}
`;
}
function createLineSplitter(onLine) {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  return (chunk) => {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const line = pending.slice(0, newline).replace(/\r$/, "");
      pending = pending.slice(newline + 1);
      if (line.trim() !== "") onLine(line);
      newline = pending.indexOf("\n");
    }
  };
}

// src/openviking/displayUrl.ts
function displayUrl(text, withPath = false) {
  const trimmed = text.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed);
  const rest = scheme === null ? trimmed : trimmed.slice(scheme[0].length);
  const afterUser = rest.slice(rest.lastIndexOf("@") + 1);
  const hostEnd = afterUser.search(/[/?#\\]/);
  const host = hostEnd === -1 ? afterUser : afterUser.slice(0, hostEnd);
  if (host === "" || /\s/.test(host)) return "(not a URL)";
  const path = withPath && hostEnd !== -1 && afterUser[hostEnd] === "/" ? afterUser.slice(hostEnd).split(/[?#]/)[0] ?? "" : "";
  return `${scheme === null ? "" : `${scheme[1].toLowerCase()}://`}${host}${path.replace(/\/+$/, "")}`;
}

// src/mcp/failures.ts
var UpstreamError = class extends Error {
  constructor(failure) {
    super(`upstream ${failure.kind} failure`);
    this.failure = failure;
    this.name = "UpstreamError";
  }
  failure;
};
function isUpstreamError(error) {
  return error instanceof UpstreamError;
}
function describeError(error) {
  if (isUpstreamError(error))
    return error.failure.kind === "http" ? `http ${error.failure.status}` : error.failure.kind;
  return errorMessage(error);
}
var SERVER_MESSAGE_MAX_CHARS = 300;
function serverMessageOf(body) {
  const text = body.trim();
  const parsed = parseJson(text);
  const error = typeof parsed === "object" && parsed !== null ? parsed.error : void 0;
  const message = typeof error === "object" && error !== null ? error.message : void 0;
  return shorten(typeof message === "string" && message.trim() ? message.trim() : text);
}
function shorten(text) {
  return text.length > SERVER_MESSAGE_MAX_CHARS ? `${text.slice(0, SERVER_MESSAGE_MAX_CHARS)}\u2026` : text;
}
function credentialFix(credentials, status) {
  const source = credentials.sources.apiKey;
  if (credentials.apiKey === void 0 || source === void 0) {
    return 'No API key is configured. Put "api_key" in ~/.openviking/ovcli.conf (read again on the next call, no restart needed) or set OPENVIKING_API_KEY and restart CodeBuddy.';
  }
  if (credentials.rootKeyOnly && status === 403) {
    return `The only key found is the server's ROOT key (${source}); OpenViking refuses root keys on memory APIs. Create a user key and put it in ~/.openviking/ovcli.conf "api_key".`;
  }
  if (source.startsWith("env:")) {
    return `The key comes from the environment variable ${source.slice(4)}. Set a valid key there and restart CodeBuddy, or unset it to use ~/.openviking/ovcli.conf.`;
  }
  if (source.startsWith("userConfig:") || /#plugin(?:Configs|Secrets)\./.test(source)) {
    return `The key comes from this plugin's "api_key" option. Update it in CodeBuddy's plugin settings.`;
  }
  if (source.startsWith("file:")) {
    return `The key comes from ${source.slice(5)}. Fix it in that file; the proxy reads it again on the next call, no restart needed.`;
  }
  return `The key comes from ${source}. Replace it with a valid OpenViking user key.`;
}
function failureToRpcError(failure, context) {
  switch (failure.kind) {
    case "rpc":
      return failure.data === void 0 ? { code: failure.code, message: failure.message } : { code: failure.code, message: failure.message, data: failure.data };
    case "http":
      if (failure.status === 401 || failure.status === 403) {
        const credentialSource = context.credentials.sources.apiKey ?? "none";
        return {
          code: RpcErrorCode.upstreamUnavailable,
          message: `OpenViking MCP authentication failed (HTTP ${failure.status}${failure.serverMessage ? `: ${failure.serverMessage}` : ""}). ` + credentialFix(context.credentials, failure.status),
          data: { status: failure.status, credentialSource, serverMessage: failure.serverMessage }
        };
      }
      return {
        code: RpcErrorCode.upstreamHttp,
        message: `OpenViking MCP endpoint ${displayUrl(context.mcpUrl, true)} returned HTTP ${failure.status}${failure.serverMessage ? `: ${failure.serverMessage}` : ""}`,
        data: { status: failure.status, serverMessage: failure.serverMessage }
      };
    case "network":
      return {
        code: RpcErrorCode.upstreamUnavailable,
        message: `OpenViking MCP request failed: cannot reach ${displayUrl(context.mcpUrl, true)} (${failure.cause}). Check the configured URL and that the OpenViking server is running ('ov serve'). The proxy reconnects by itself on the next call.`,
        data: { cause: failure.cause }
      };
    case "timeout":
      return {
        code: RpcErrorCode.upstreamUnavailable,
        message: `OpenViking did not answer within ${failure.timeoutMs} ms (${displayUrl(context.mcpUrl, true)}). The server may be overloaded or stuck; try again later, or raise OPENVIKING_TIMEOUT_MS.`,
        data: { cause: "timeout", timeoutMs: failure.timeoutMs }
      };
    case "protocol":
      return {
        code: RpcErrorCode.upstreamEmpty,
        message: `OpenViking MCP endpoint ${displayUrl(context.mcpUrl, true)} gave an unusable answer: ${failure.message}`
      };
    case "cancelled":
      return { code: RpcErrorCode.internalError, message: "Request cancelled" };
  }
}

// src/openviking/identityHeaders.ts
var IDENTITY_HEADER_NAMES = [
  "Authorization",
  "X-OpenViking-Account",
  "X-OpenViking-User",
  "X-OpenViking-Actor-Peer"
];
function identityHeaders(fields) {
  const headers = {};
  const key = fields.apiKey?.trim();
  const values = [key ? `Bearer ${key}` : void 0, fields.account, fields.user, fields.actorPeer];
  IDENTITY_HEADER_NAMES.forEach((name, index) => {
    const value = values[index]?.trim();
    if (value) headers[name] = value;
  });
  return headers;
}

// src/project/identity.ts
import { resolve as resolve4 } from "node:path";

// src/project/gitRepo.ts
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";

// src/store/fsUtil.ts
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync
} from "node:fs";

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

// src/store/fsUtil.ts
function namesInDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
function statQuietly(path) {
  try {
    return statSync(path, { throwIfNoEntry: false });
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
var APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

// src/store/smallFile.ts
import { closeSync as closeSync2, constants as constants2, fstatSync as fstatSync2, openSync as openSync2, readSync, statSync as statSync2 } from "node:fs";
var OPEN_FLAGS = constants2.O_RDONLY | constants2.O_NONBLOCK | constants2.O_NOCTTY;
function readSmallFile(path, maxBytes) {
  let stats;
  try {
    stats = statSync2(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable(error);
  }
  if (stats === void 0) return MISSING;
  const refused2 = refusal(stats, maxBytes);
  if (refused2 !== void 0) return refused2;
  let fd;
  try {
    fd = openSync2(path, OPEN_FLAGS);
  } catch (error) {
    return unreadable(error);
  }
  try {
    const opened = fstatSync2(fd);
    return refusal(opened, maxBytes) ?? readOpen(fd, opened.size, maxBytes);
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync2(fd);
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

// src/project/gitRepo.ts
var MAX_GIT_FILE_BYTES = 256 * 1024;
var SUBMODULE_DIR = /[/\\]\.git[/\\]modules[/\\]/;
function gitDirAt(dir, notes) {
  const dotGit = join(dir, ".git");
  notes.touched.push(dotGit);
  const stat = statQuietly(dotGit);
  if (stat === void 0) return void 0;
  if (stat.isDirectory()) return { gitRoot: dir, gitDir: dotGit, commonDir: dotGit, kind: "repo" };
  const pointer = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit, notes) ?? "")?.[1]?.trim();
  if (!pointer) return void 0;
  const gitDir = resolve(dir, pointer);
  const common = commonDirOf(gitDir, notes);
  const kind = SUBMODULE_DIR.test(`${common.dir}${sep}`) ? "submodule" : common.named ? "worktree" : "repo";
  return { gitRoot: dir, gitDir, commonDir: common.dir, kind };
}
function mainCheckout(git) {
  if (git.kind !== "worktree") return git.gitRoot;
  return basename(git.commonDir) === ".git" ? dirname(git.commonDir) : git.commonDir;
}
function commonDirOf(gitDir, notes) {
  const commondirFile = join(gitDir, "commondir");
  notes.touched.push(commondirFile);
  const common = readSmall(commondirFile, notes)?.trim();
  if (!common) return { dir: gitDir, named: false };
  const target = isAbsolute(common) ? common : resolve(gitDir, common);
  if (statQuietly(target)?.isDirectory() === true) return { dir: target, named: true };
  notes.ignored.push(`${commondirFile} names ${target}, which is not a directory; ignoring it`);
  return { dir: gitDir, named: false };
}
function readGitConfig(commonDir, notes) {
  const file = join(commonDir, "config");
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
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      remote = section[1].toLowerCase() === "remote" ? section[2] ?? "" : void 0;
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
function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
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

// src/store/fastHash.ts
function hash64Hex(text) {
  let h1 = 3735928559;
  let h2 = 1103547991;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
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

// src/project/remote.ts
var PEER_ID_PATTERN = /^[a-zA-Z0-9_.@-]+$/;
var MAX_PEER_ID_LENGTH = 128;
function isValidPeerId(value) {
  return value.length <= MAX_PEER_ID_LENGTH && PEER_ID_PATTERN.test(value) && value !== "." && value !== ".." && value.split("@").length <= 2;
}
function canonicalRemote(url) {
  const text = url.trim();
  if (text === "") return void 0;
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(text);
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
    const colon = text.indexOf(":");
    const slash = text.indexOf("/");
    const scp = colon !== -1 && (slash === -1 || colon < slash) ? /^(?:.*@)?([^:/@\s]+):(?!\/\/)(.*)$/s.exec(text) : null;
    if (!scp || /^[a-z]$/i.test(scp[1])) return `local${normalisePath(withoutQuery(text))}`;
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
function readable(text) {
  return text.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 64).replace(/[-.]+$/, "");
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
  const text = typeof source === "string" ? source.trim() : "";
  if (text === "") return PRESETS.git;
  const preset = PRESETS[text];
  if (preset !== void 0) return preset;
  if (text.includes("{")) return [text];
  warn(
    `peer source "${text.slice(0, 60)}" is neither a preset (git, cwd, none) nor a template such as "team-{dir}"; using git`
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
import { join as join4 } from "node:path";

// src/project/workspaceRoot.ts
import { dirname as dirname2, join as join2, parse, resolve as resolve2 } from "node:path";
var WORKSPACE_DIR = ".openviking";
var WORKSPACE_FILES = ["config.json", "config.local.json"];
var MAX_FOLDER_CHARS = 4096;
function findWorkspaceRoot(folder, homeDir, notes) {
  if (folder.trim() === "" || folder.length > MAX_FOLDER_CHARS) return void 0;
  const absolute = resolve2(folder);
  if (absolute.length > MAX_FOLDER_CHARS) return void 0;
  const real = realPath(absolute);
  const realHome = realPath(resolve2(homeDir));
  let current = real !== void 0 && realHome !== void 0 ? real : absolute;
  const stopAt = real !== void 0 && realHome !== void 0 ? realHome : resolve2(homeDir);
  const fsRoot = parse(current).root;
  let marked;
  for (; current !== fsRoot && current !== stopAt; current = dirname2(current)) {
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
    const path = join2(dir, WORKSPACE_DIR, name);
    notes.touched.push(path);
    return statQuietly(path);
  });
  if (stats.some((stat) => stat?.isFile() === true)) return "regular";
  return stats.some((stat) => stat !== void 0) ? "other" : "none";
}

// src/project/workspaceFile.ts
import { sep as sep2 } from "node:path";

// src/config/configFile.ts
import { isAbsolute as isAbsolute2, join as join3, resolve as resolve3 } from "node:path";

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
function jsonSyntaxProblem(text) {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return void 0;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...lineAndColumn(text, error.at), problem: error.problem };
  }
}
function describeJsonSyntax(text) {
  const found = jsonSyntaxProblem(text);
  return found === void 0 ? "not JSON" : `line ${found.line}, column ${found.column}: ${found.problem}`;
}
function lineAndColumn(text, at) {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}
var Scanner = class {
  constructor(text) {
    this.text = text;
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
  let text;
  try {
    text = readFile(path);
  } catch (error) {
    return refused(
      path,
      shownAs,
      error instanceof RefusedFile ? error.message : `cannot be read (${errorMessage(error)})`
    );
  }
  if (text === void 0) return { path, exists: false };
  if (text.length > MAX_CONFIG_BYTES) return refused(path, shownAs, `is larger than ${MAX_CONFIG_BYTES} bytes`);
  if (!text.trim()) return refused(path, shownAs, "is empty");
  let forbidden;
  let value;
  try {
    value = JSON.parse(text, (key, entry) => {
      if (FORBIDDEN_KEYS.has(key)) forbidden ??= key;
      return entry;
    });
  } catch {
    return refused(path, shownAs, `is not valid JSON (${describeJsonSyntax(text)})`);
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
  if (path.startsWith("~/")) return join3(homeDir, path.slice(2));
  return isAbsolute2(path) ? path : resolve3(homeDir, path);
}
function displayPath(path, homeDir) {
  const home = homeDir.endsWith("/") ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

// src/config/knobs/units.ts
var SECOND = 1e3;

// src/config/knobs/budgets.ts
var BUDGET_KNOBS = {
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
  }
};

// src/config/knobs/capture.ts
var CAPTURE_KNOBS = {
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
  }
};

// src/config/knobs/queue.ts
var QUEUE_KNOBS = {
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
  }
};

// src/config/knobs/recall.ts
var RECALL_KNOBS = {
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
  recallMinRelevance: {
    env: "OPENVIKING_RECALL_MIN_RELEVANCE",
    type: "float",
    default: 0,
    min: 0,
    max: 2,
    description: "Inject nothing when the best memory's relevance (its score plus the plugin's re-rank, D43) is below this; 0: off. Depends on the embedding model: with all-MiniLM-L6-v2, 0.69 halved injections on the benchmark's prompts that no memory answers and cost some right answers (D43)."
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
    description: "`all`: the server searches every project's memories, others' penalised (the plugin then drops them: none reaches the prompt); `actor`: it searches only this project's and those of no project."
  },
  recallOtherPeerPenalty: {
    env: "OPENVIKING_RECALL_OTHER_PEER_PENALTY",
    type: "float",
    default: 0.1,
    min: 0,
    max: 1,
    description: "Score the server takes off another project's memories in recall (`all` scope): it ranks them lower, so they take fewer of its places; one that still outscores all of this project's shows the prompt is about that project, and nothing is injected (D43)."
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
  }
};

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
  const text = raw?.trim().toLowerCase();
  if (!text || !Object.hasOwn(SWITCH_WORDS, text)) return void 0;
  return SWITCH_WORDS[text];
}
var SWITCH_WORDS_TEXT = "true/false, yes/no, on/off, 1/0";
var DEFAULT_DEBUG_LOG_PATH = "~/.openviking/logs/codebuddy-hooks.log";

// src/config/knobs/runtime.ts
var RUNTIME_KNOBS = {
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

// src/config/knobs/switches.ts
var SWITCH_KNOBS = {
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
  }
};

// src/config/knobs/index.ts
var KNOB_TABLE = {
  ...SWITCH_KNOBS,
  ...RECALL_KNOBS,
  ...BUDGET_KNOBS,
  ...CAPTURE_KNOBS,
  ...QUEUE_KNOBS,
  ...RUNTIME_KNOBS
};
function listKnobs() {
  return Object.entries(KNOB_TABLE).map(([key, knob]) => ({ ...knob, key }));
}

// src/project/workspaceFile.ts
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
function readSection(section, values, layer, report) {
  let seen = 0;
  for (const [child, childValue] of Object.entries(values)) {
    const dotted = `${section}.${child}`;
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
      return parseNumber(key, spec, raw, path, report);
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
function parseNumber(key, spec, raw, path, report) {
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
  const paths = WORKSPACE_FILES.map((name) => join4(root, WORKSPACE_DIR, name));
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
import { join as join5, sep as sep3 } from "node:path";
var MAX_INDEX_BYTES = 4 * 1024 * 1024 - 1;
function trackedByGit(git, path) {
  const top = git.gitRoot.endsWith(sep3) ? git.gitRoot : `${git.gitRoot}${sep3}`;
  if (!path.startsWith(top)) return true;
  const inRepo = path.slice(top.length).split(sep3).join("/");
  const index = readSmallFile(join5(git.gitDir, "index"), MAX_INDEX_BYTES);
  if (index.absent === "missing") return false;
  if (index.absent !== void 0 || !readableIndex(index.text)) return true;
  const needle = `${inRepo}\0`;
  if (index.text.includes(needle)) return true;
  for (const name of namesInDir(git.gitDir).filter((entry) => entry.startsWith("sharedindex."))) {
    const shared = readSmallFile(join5(git.gitDir, name), MAX_INDEX_BYTES);
    if (shared.absent !== void 0 || !readableIndex(shared.text) || shared.text.includes(needle)) return true;
  }
  return false;
}
function readableIndex(text) {
  return text.startsWith("DIRC\0\0\0") && (text.charCodeAt(7) === 2 || text.charCodeAt(7) === 3);
}

// src/project/trust.ts
import { join as join7 } from "node:path";

// src/store/atomic.ts
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { basename as basename2, dirname as dirname3, join as join6 } from "node:path";

// src/store/jsonFile.ts
var MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;
async function readJsonDetailed(path) {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent === "missing") return { status: "missing" };
  if (file.absent !== void 0) return { status: "unreadable", reason: `${path} ${file.why}` };
  const text = file.text;
  try {
    return { status: "ok", value: JSON.parse(text) };
  } catch {
    return { status: "corrupt", reason: `invalid JSON (${text.length} chars; ${describeJsonSyntax(text)})` };
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
  return join6(dirname3(path), `${basename2(path)}.${unique}${TEMP_SUFFIX}`);
}
async function writeFileAtomic(path, data, options = {}) {
  await ensurePrivateDir(dirname3(path));
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

// src/project/trust.ts
var MAX_TRUST_BYTES = 256 * 1024;
function trustFile(dataDir) {
  return join7(dataDir, "trust.json");
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

// src/mcp/handshake.ts
var PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
var OFFERED_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0];
var MCP_CLIENT_INFO = Object.freeze({
  name: "openviking",
  version: PLUGIN_VERSION
});
var MCP_CLIENT_CAPABILITIES = Object.freeze({});
function speaksProtocolVersion(version) {
  return typeof version === "string" && PROTOCOL_VERSIONS.includes(version);
}
function mcpActorPeer(config, where, now) {
  return where ? projectFor(config, where.workspace, where.homeDir, now).project.peerId : config.credentials.peerId;
}
function mcpRequestHeaders(config, where, now, userAgent) {
  const { credentials } = config;
  return {
    ...identityHeaders({
      apiKey: credentials.apiKey,
      account: credentials.account,
      user: credentials.user,
      actorPeer: mcpActorPeer(config, where, now)
    }),
    "User-Agent": userAgent
  };
}

export {
  isRecord,
  readSmallTextFile,
  loadConfigFile,
  expandHome,
  displayPath,
  statQuietly,
  hash64Hex,
  displayUrl,
  parseSwitch,
  SWITCH_WORDS_TEXT,
  KNOB_TABLE,
  listKnobs,
  PLUGIN_VERSION,
  USER_AGENT,
  RpcErrorCode,
  parseMessage,
  resultLine,
  errorLine,
  notificationLine,
  createLineSplitter,
  UpstreamError,
  isUpstreamError,
  describeError,
  serverMessageOf,
  failureToRpcError,
  IDENTITY_HEADER_NAMES,
  readJson,
  writeJsonAtomic,
  projectFor,
  PROTOCOL_VERSIONS,
  MCP_CLIENT_INFO,
  MCP_CLIENT_CAPABILITIES,
  speaksProtocolVersion,
  mcpRequestHeaders
};
