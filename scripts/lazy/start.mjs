// src/hook/deps.ts
var PASS = Object.freeze({ kind: "pass" });

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

// src/profile/fetch.ts
var LISTING_LIMIT = 512;
function memoriesRoot(space) {
  return `viking://user/${space}/memories`;
}
async function fetchProfileSources(client, space) {
  const root = memoriesRoot(space);
  const listing = (folder) => client.ls(`${root}/${folder}`, { output: "agent", recursive: true, absLimit: LISTING_LIMIT, nodeLimit: LISTING_LIMIT });
  const [profile, preferences, entities] = await Promise.all([client.read(`${root}/profile.md`), listing("preferences"), listing("entities")]);
  const text2 = profile.ok ? profile.result.trim() : "";
  return {
    space,
    ...text2 !== "" ? { profile: text2 } : {},
    preferences: preferences.ok ? memoryFiles(preferences.result, `${root}/preferences/`) : [],
    entities: entities.ok ? memoryFiles(entities.result, `${root}/entities/`) : [],
    reached: [profile, preferences, entities].some((result) => result.ok || result.status !== 0)
  };
}
function memoryFiles(entries, folderUri) {
  const files = entries.filter((entry) => entry.isDir !== true).map((entry) => ({ entry, name: entry.rel_path ?? (entry.uri.startsWith(folderUri) ? entry.uri.slice(folderUri.length) : entry.uri) })).filter(({ name }) => name.endsWith(".md") && !name.split("/").some((part) => part.startsWith("."))).map(({ entry, name }) => {
    const abstract = entry.abstract?.replace(/\s+/g, " ").trim();
    return abstract ? { name, abstract } : { name };
  });
  return files.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
async function fetchArchiveOverview(client, ovSessionId2, tokenBudget) {
  if (ovSessionId2 === "") return void 0;
  const context = await client.sessionContext(ovSessionId2, tokenBudget);
  const overview = context.ok ? context.result.latest_archive_overview?.trim() : void 0;
  return overview ? overview : void 0;
}

// src/recall/escape.ts
var PROTECTED_TAG = /<(\s*\/?\s*)(openviking-context|memory|user-profile|available-memories|session-archive|archive-overview|system-reminder)(?=[\s/>]|$)/gi;
function escapeBlockText(text2) {
  return text2.includes("<") ? text2.replace(PROTECTED_TAG, "&lt;$1$2") : text2;
}
function escapeAttribute(value) {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/[\r\n]+/g, " ");
}

// src/recall/tokens.ts
var WIDE_CODEPOINT = 12288;
function estimateTokens(text2) {
  let wide = 0;
  let narrow = 0;
  for (const char of text2) {
    if ((char.codePointAt(0) ?? 0) >= WIDE_CODEPOINT) wide++;
    else narrow++;
  }
  return Math.ceil(wide * 1.5 + narrow / 4);
}
function clipToTokens(text2, budgetTokens) {
  let used = 0;
  let end = 0;
  for (const char of text2) {
    used += (char.codePointAt(0) ?? 0) >= WIDE_CODEPOINT ? 1.5 : 0.25;
    if (used > budgetTokens) break;
    end += char.length;
  }
  return text2.slice(0, end);
}

// src/profile/render.ts
var START_TOOLS_LINE = 'Long-term memory from OpenViking. Read a memory with mcp__openviking__read {"uris": "<uri>"}, list a folder with mcp__openviking__list {"uri": "<folder>"}; they are deferred tools: call them through DeferExecuteTool with toolName and params.';
var LIST_HINT = "mcp__openviking__list";
var ELIDED_MARK = "\n... [profile middle elided] ...\n";
var TRUNCATED_MARK = "\n... [profile truncated]";
var SHORT_PROFILE_LINES = 12;
var HEAD_LINES = 8;
var MIN_TAIL_CHARS = 200;
var MIN_PROFILE_CHARS = 400;
function renderStartBlock(input, budgets) {
  const sections = [...profileSections(input.profile, budgets.profileTokens), ...archiveSection(input.archiveOverview, budgets.archiveTokens)];
  if (sections.length === 0) return "";
  return [`<openviking-context source="${escapeAttribute(input.source)}">`, START_TOOLS_LINE, ...sections, "</openviking-context>"].join("\n");
}
function profileSections(sources, budget) {
  if (sources === void 0) return [];
  const hasListings = sources.preferences.length + sources.entities.length > 0;
  const sections = [];
  let used = 0;
  if (sources.profile !== void 0) {
    const uri = `${memoriesRoot(sources.space)}/profile.md`;
    const text2 = elideProfile(escapeBlockText(sources.profile), hasListings ? Math.floor(budget / 2) : budget);
    sections.push(`<user-profile uri="${escapeAttribute(uri)}">
${text2}
</user-profile>`);
    used = estimateTokens(text2);
  }
  if (!hasListings) return sections;
  const listingBudget = Math.max(0, budget - used);
  const root = memoriesRoot(sources.space);
  const preferences = renderListing(`${root}/preferences/`, sources.preferences, Math.floor(listingBudget / 2));
  const entities = renderListing(`${root}/entities/`, sources.entities, listingBudget - preferences.tokens);
  const body = [preferences.text, entities.text].filter((text2) => text2 !== "");
  if (body.length > 0) sections.push(["<available-memories>", ...body, "</available-memories>"].join("\n"));
  return sections;
}
function archiveSection(overview, budget) {
  if (overview === void 0 || overview.trim() === "") return [];
  const text2 = clipToTokens(escapeBlockText(overview.trim()), budget);
  return [`<session-archive>
<archive-overview>
${text2}
</archive-overview>
</session-archive>`];
}
function elideProfile(text2, budgetTokens) {
  const tokens = estimateTokens(text2);
  if (tokens <= budgetTokens) return text2;
  const charsPerToken = text2.length / Math.max(1, tokens);
  const charBudget = Math.max(MIN_PROFILE_CHARS, Math.floor(budgetTokens * charsPerToken));
  const lines = text2.split("\n");
  const head = lines.slice(0, HEAD_LINES).join("\n");
  const tailBudget = charBudget - head.length - ELIDED_MARK.length;
  if (lines.length <= SHORT_PROFILE_LINES || tailBudget < MIN_TAIL_CHARS) return `${text2.slice(0, charBudget).trimEnd()}${TRUNCATED_MARK}`;
  const tail = [];
  let tailChars = 0;
  for (let index = lines.length - 1; index >= HEAD_LINES; index--) {
    const line = lines[index];
    if (tailChars + line.length + 1 > tailBudget) break;
    tail.unshift(line);
    tailChars += line.length + 1;
  }
  return `${head}${ELIDED_MARK}${tail.join("\n")}`;
}
function renderListing(folderUri, items, budgetTokens) {
  if (items.length === 0) return { text: "", tokens: 0 };
  const header = escapeBlockText(folderUri);
  if (estimateTokens(header) > budgetTokens) {
    const stub = `${header} (${items.length} entries; list them with ${LIST_HINT})`;
    const tokens = estimateTokens(stub);
    return tokens <= budgetTokens ? { text: stub, tokens } : { text: "", tokens: 0 };
  }
  const lines = [header];
  let used = estimateTokens(header) + 1;
  let shown = 0;
  for (const item of items) {
    const line = `  - ${escapeBlockText(item.name)}${item.abstract ? ` \u2014 ${escapeBlockText(item.abstract.slice(0, 200))}` : ""}`;
    const cost = estimateTokens(line) + 1;
    const reserve = shown + 1 < items.length ? estimateTokens(overflowLine(folderUri, items.length)) + 1 : 0;
    if (used + cost + reserve > budgetTokens) break;
    lines.push(line);
    used += cost;
    shown++;
  }
  if (shown < items.length) {
    const overflow = overflowLine(folderUri, items.length - shown);
    const cost = estimateTokens(overflow) + 1;
    if (used + cost <= budgetTokens) {
      lines.push(overflow);
      used += cost;
    }
  }
  return { text: lines.join("\n"), tokens: used };
}
function overflowLine(folderUri, hidden) {
  return `  ... +${hidden} more; list them with ${LIST_HINT} {"uri": "${escapeBlockText(folderUri)}"}`;
}

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

// src/profile/startState.ts
var START_ANSWER_REUSE_MS = 2 * 6e4;
function readStartState(fields) {
  const answers = fields["answers"];
  if (!isRecord(answers)) return void 0;
  const valid = {};
  for (const [source, answer] of Object.entries(answers)) {
    if (source === "__proto__" || !isRecord(answer)) continue;
    if (typeof answer["text"] === "string" && typeof answer["at"] === "number") valid[source] = { text: answer["text"], at: answer["at"] };
  }
  return { answers: valid };
}
function reusableAnswer(state, source, now) {
  const answer = state?.answers[source];
  return answer !== void 0 && now - answer.at >= 0 && now - answer.at < START_ANSWER_REUSE_MS ? answer : void 0;
}
function withAnswer(state, source, answer) {
  return { answers: { ...state?.answers ?? {}, [source]: answer } };
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

// src/session/keyedCache.ts
import { join as join2 } from "node:path";

// src/store/atomic.ts
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

// src/store/fsUtil.ts
import { stat, utimes } from "node:fs/promises";
function errorCode(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const code = error.code;
  return typeof code === "string" ? code : void 0;
}
function errorMessage(error) {
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
  return join(dirname(path), `${basename(path)}.${unique}${TEMP_SUFFIX}`);
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

// src/session/keyedCache.ts
var MAX_KEYS = 64;
function cacheFile(dataDir, name) {
  return join2(dataDir, "cache", `${name}.json`);
}
function cacheKey(...parts) {
  return hash64Hex(parts.map((part) => part ?? "").join("\n"));
}
async function readCached(file, key, now, accept) {
  const entry = (await readEntries(file))[key];
  if (!isRecord(entry) || typeof entry["expiresAt"] !== "number" || entry["expiresAt"] <= now) return void 0;
  return accept(entry["value"]) ? entry["value"] : void 0;
}
async function writeCached(file, key, value, expiresAt, now) {
  const entries = await readEntries(file);
  const live = Object.entries(entries).filter(
    ([name, entry]) => name !== key && isRecord(entry) && typeof entry["expiresAt"] === "number" && entry["expiresAt"] > now
  );
  live.sort(([, a], [, b]) => Number(b["expiresAt"]) - Number(a["expiresAt"]));
  const next = Object.fromEntries([[key, { value, expiresAt }], ...live.slice(0, MAX_KEYS - 1)]);
  await writeJsonAtomic(file, next, { fsync: false }).catch(() => void 0);
}
async function readEntries(file) {
  const value = await readJson(file);
  return isRecord(value) ? value : {};
}

// src/profile/userSpace.ts
var USER_SPACE_TTL_MS = 24 * 60 * 6e4;
var RESERVED = /* @__PURE__ */ new Set(["memories", "skills"]);
var USER_ID = /^[A-Za-z0-9_.@-]+$/;
function isSpace(value) {
  return typeof value === "string" && USER_ID.test(value);
}
function keyOf(ref) {
  const { baseUrl, apiKey, account, user } = ref.credentials;
  return cacheKey(baseUrl, apiKey, account, user);
}
function cachedUserSpace(ref) {
  return readCached(cacheFile(ref.dataDir, "user-space"), keyOf(ref), ref.now, isSpace);
}
async function resolveUserSpace(client, ref) {
  const cached = await cachedUserSpace(ref);
  if (cached !== void 0) return cached;
  const [status, listing] = await Promise.all([client.systemStatus(), client.ls("viking://user", { output: "original" })]);
  if (!status.ok && !listing.ok) return void 0;
  const fallback = status.ok && isSpace(status.result.user) ? status.result.user : "default";
  const names = listing.ok ? listing.result.filter((entry) => entry.isDir !== false).map((entry) => entry.name ?? lastSegment(entry.uri)) : [];
  const space = chooseSpace(names, fallback);
  if (space === void 0) return void 0;
  await writeCached(cacheFile(ref.dataDir, "user-space"), keyOf(ref), space, ref.now + USER_SPACE_TTL_MS, ref.now);
  return space;
}
function chooseSpace(names, fallback) {
  const candidates = names.filter((name) => isSpace(name) && !name.startsWith(".") && !RESERVED.has(name));
  if (candidates.includes(fallback)) return fallback;
  if (candidates.includes("default")) return "default";
  if (candidates.length === 1) return candidates[0];
  return isSpace(fallback) ? fallback : void 0;
}
function lastSegment(uri) {
  return uri.replace(/\/+$/, "").split("/").pop() ?? "";
}

// src/profile/housekeeping.ts
import { readdir as readdir3 } from "node:fs/promises";

// src/capture/state.ts
import { readdir as readdir2 } from "node:fs/promises";
import { join as join6 } from "node:path";

// src/store/lock.ts
import { mkdir as mkdir2, readdir, readFile as readFile2, rename as rename2, rm, rmdir, unlink as unlink2, writeFile } from "node:fs/promises";
import { hostname as osHostname } from "node:os";
import { dirname as dirname2, join as join3 } from "node:path";
var OWNER_SUFFIX = ".owner";
var DEFAULT_LOCK_POLL_MS = 25;
async function tryLock(lockPath, options) {
  try {
    return await attemptWithReclaim(lockPath, options);
  } catch (error) {
    return { ok: false, reason: "error", message: errorMessage(error) };
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
    await writeFile(join3(staging, ownerName), JSON.stringify(owner), { mode: PRIVATE_FILE_MODE, flag: "wx" });
    await setMtime(join3(staging, ownerName), options.now());
    await rename2(staging, lockPath);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (hasErrorCode(error, "EEXIST", "ENOTEMPTY", "EPERM", "EACCES", "ENOTDIR", "EISDIR")) return void 0;
    throw error;
  }
  return ownedLock(lockPath, join3(lockPath, ownerName), options);
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
    await Promise.all(entries.map((name) => rm(join3(lockPath, name), { recursive: true, force: true })));
    await rmdir(lockPath).catch(() => void 0);
    return { kind: "retry" };
  }
  const ownerPath = join3(lockPath, ownerName);
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
    return absent(`validator threw on ${file}: ${errorMessage(error)}`);
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
    return { ok: false, message: errorMessage(error) };
  }
}

// src/capture/paths.ts
import { join as join5 } from "node:path";

// src/store/paths.ts
import { isAbsolute, join as join4 } from "node:path";
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
  return isAbsolute(expanded) ? expanded : void 0;
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
    sessionsDir: join4(root, "sessions"),
    locksDir: join4(root, "locks"),
    queueDir: join4(root, "queue"),
    cacheDir: join4(root, "cache")
  };
}
function sessionStateFile(layout, sessionKey) {
  return join4(layout.sessionsDir, `${safeFileKey(sessionKey)}.json`);
}
function sessionLockFile(layout, sessionKey, purpose = "state") {
  return join4(layout.locksDir, `${purpose}-${safeFileKey(sessionKey)}.lock`);
}

// src/capture/paths.ts
function captureDir(dataDir) {
  return join5(dataDir, "capture");
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
async function listCaptureStates(dataDir) {
  let names;
  try {
    names = await readdir2(captureDir(dataDir));
  } catch {
    return [];
  }
  const states = [];
  for (const name of names.filter((entry) => entry.endsWith(".json")).sort()) {
    const loaded = await loadSessionState(join6(captureDir(dataDir), name), narrowCaptureState);
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

// src/store/queueFiles.ts
import { join as join7 } from "node:path";
var SEQ_DIGITS = 6;
var MAX_SEQ = 10 ** SEQ_DIGITS - 1;
function queuePaths(queueDir) {
  return {
    pendingDir: join7(queueDir, "pending"),
    deadDir: join7(queueDir, "dead"),
    enqueueLock: join7(queueDir, "enqueue.lock"),
    replayLock: join7(queueDir, "replay.lock")
  };
}

// src/profile/housekeeping.ts
var COMMIT_STALE_WORKER = "commit-stale";
async function hasPendingWrites(dataDir) {
  try {
    return (await readdir3(queuePaths(storeLayout(dataDir).queueDir).pendingDir)).some((name) => name.endsWith(".json") || name.endsWith(".processing"));
  } catch {
    return false;
  }
}
async function replayQueue(deps, config, dataDir, budgetMs) {
  const { settings } = config;
  if (settings.pendingReplayLimit <= 0 || budgetMs <= 0 || !await hasPendingWrites(dataDir)) return void 0;
  const [{ captureEnvFor }, { replayPendingWrites }] = await Promise.all([import("./capture-env.mjs"), import("./replay.mjs")]);
  const summary = await replayPendingWrites({ ...captureEnvFor(deps, config, budgetMs), dataDir }, {
    budgetMs,
    limit: settings.pendingReplayLimit,
    lockWaitMs: Math.min(settings.lockTimeoutMs, budgetMs)
  });
  return { ...summary };
}
function staleCandidates(states, workspace, currentOvSessionId) {
  return states.filter(
    (state) => state.workspace === workspace && state.ovSessionId !== currentOvSessionId && !state.ovSessionId.startsWith(`${currentOvSessionId}${SUBAGENT_SEPARATOR}`) && (state.capturedSinceCommit > 0 || (state.lastCaptureAt ?? 0) > (state.lastCommitAt ?? 0))
  );
}
async function commitStaleInBackground(deps, dataDir, workspace, hostSessionId) {
  const candidates = staleCandidates(await listCaptureStates(dataDir), workspace, ovSessionId(hostSessionId));
  if (candidates.length === 0) return 0;
  const started = deps.spawnDetached(["worker", COMMIT_STALE_WORKER], JSON.stringify({ workspace, exceptSessionId: hostSessionId }));
  deps.log.debug("stale sessions handed to the commit-stale worker", { count: candidates.length, started });
  return candidates.length;
}

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

// src/session/locks.ts
function startLockPath(dataDir, ovSessionId2) {
  return sessionLockFile(storeLayout(dataDir), ovSessionId2, "start");
}

// src/config/configFile.ts
import { readFileSync, statSync } from "node:fs";
import { isAbsolute as isAbsolute2, join as join8, resolve } from "node:path";
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
  if (path.startsWith("~/")) return join8(homeDir, path.slice(2));
  return isAbsolute2(path) ? path : resolve(homeDir, path);
}
function displayPath(path, homeDir) {
  const home = homeDir.endsWith("/") ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

// src/config/credentials.ts
import { join as join9 } from "node:path";
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
    const path = expandHome(override ?? join9("~", ".openviking", fallbackName), homeDir);
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
function errorMessage2(error) {
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
    return failure(0, "BAD_REQUEST", `request body is not serialisable: ${errorMessage2(error)}`);
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
    const reason = `unexpected ${spec.path} response: ${errorMessage2(error)}`;
    return redact(failure(interpreted.status, "BAD_RESPONSE", reason), options.apiKey);
  }
}
function transportFailure(error, cutByDeadline, spec) {
  const where = `${spec.method} ${spec.path}`;
  switch (transportFailureKind(error)) {
    case "timeout":
      return cutByDeadline ? failure(0, "DEADLINE", `stage deadline reached during ${where}`) : failure(0, "TIMEOUT", `${where} timed out: ${errorMessage2(error)}`);
    case "too_large":
      return failure(0, "BAD_RESPONSE", `${where}: ${errorMessage2(error)}`);
    default:
      return failure(0, "NETWORK", `${where} failed: ${errorMessage2(error)}`);
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

// src/session/workspace.ts
function resolveWorkspace(input, env, cwd) {
  for (const candidate of [input.cwd, env.CODEBUDDY_PROJECT_DIR, env.CLAUDE_PROJECT_DIR]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate;
  }
  return cwd;
}

// src/session/stageContext.ts
function openStageContext(input, deps, deadlineMs) {
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  const { settings } = config;
  const deadlineAt = deps.now() + deadlineMs(settings);
  const hostSessionId = typeof input.session_id === "string" ? input.session_id : "";
  return {
    config,
    settings,
    dataDir: resolveDataDir(deps.env, deps.homeDir),
    workspace: resolveWorkspace(input, deps.env, deps.cwd),
    hostSessionId,
    ovSessionId: ovSessionId(hostSessionId),
    deadlineAt,
    client: clientFor(config, deps, settings.timeoutMs, deadlineAt)
  };
}
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

// src/stages/start.ts
var SETTLE_GRACE_MS = 200;
var ARCHIVE_SOURCES = /* @__PURE__ */ new Set(["resume", "compact"]);
async function runStart(input, deps) {
  if (input.hook_event_name !== "SessionStart") return PASS;
  try {
    const ctx = openStageContext(input, deps, (settings) => settings.startDeadlineMs);
    if (!ctx.settings.enabled || isBypassed(ctx.settings, ctx.hostSessionId, ctx.workspace)) return PASS;
    const source = typeof input.source === "string" && input.source.trim() !== "" ? input.source.trim() : "startup";
    const text2 = await withTimeout(answerOnce(ctx, source, deps), Math.max(0, ctx.deadlineAt - deps.now()) + SETTLE_GRACE_MS, "");
    return text2 === "" ? PASS : { kind: "context", text: text2 };
  } catch (error) {
    deps.log.warn("session start failed; passing through", { error: error instanceof Error ? error.message : String(error) });
    return PASS;
  }
}
async function answerOnce(ctx, source, deps) {
  if (ctx.ovSessionId === "") return buildAnswer(ctx, source, deps);
  const file = sessionStateFile(storeLayout(ctx.dataDir), `${ctx.ovSessionId}#start`);
  const lock = { now: deps.now, timeoutMs: Math.max(0, ctx.deadlineAt - deps.now()), staleMs: ctx.settings.startDeadlineMs + 5e3 };
  const locked = await withLock(startLockPath(ctx.dataDir, ctx.ovSessionId), lock, async () => {
    const loaded = await loadSessionState(file, readStartState);
    const state = loaded.status === "found" ? loaded.state : void 0;
    const reused = reusableAnswer(state, source, deps.now());
    if (reused !== void 0) {
      deps.log.debug("session start delivered again; reusing the answer", { source });
      return reused.text;
    }
    const text2 = await buildAnswer(ctx, source, deps);
    await saveSessionState(file, withAnswer(state, source, { text: text2, at: deps.now() }));
    return text2;
  });
  if (!locked.ok) deps.log.warn("session start lock not acquired; passing through", { reason: locked.reason });
  return locked.ok ? locked.value : "";
}
async function buildAnswer(ctx, source, deps) {
  const budgetMs = Math.min(ctx.settings.pendingReplayBudgetMs, Math.max(0, ctx.deadlineAt - deps.now()));
  const replayed = await replayQueue(deps, ctx.config, ctx.dataDir, budgetMs);
  if (replayed !== void 0) deps.log.debug("pending writes replayed", replayed);
  const [profile, archiveOverview] = await Promise.all([
    ctx.settings.autoProfile ? fetchProfile(ctx, deps) : void 0,
    ARCHIVE_SOURCES.has(source) ? fetchArchiveOverview(ctx.client, ctx.ovSessionId, ctx.settings.resumeContextBudget) : void 0,
    ctx.settings.autoCapture ? commitStaleInBackground(deps, ctx.dataDir, ctx.workspace, ctx.hostSessionId) : void 0
  ]);
  return renderStartBlock(
    { source, ...profile ? { profile } : {}, ...archiveOverview ? { archiveOverview } : {} },
    { profileTokens: ctx.settings.profileTokenBudget, archiveTokens: ctx.settings.resumeContextBudget }
  );
}
async function fetchProfile(ctx, deps) {
  const space = await resolveUserSpace(ctx.client, { dataDir: ctx.dataDir, credentials: ctx.config.credentials, now: deps.now() });
  if (space === void 0) return void 0;
  return fetchProfileSources(ctx.client, space);
}
export {
  runStart
};
