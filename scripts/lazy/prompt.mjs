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

// src/recall/block.ts
var RECALL_TOOLS_LINE = 'Relevant memory from OpenViking. Expand a URI with mcp__openviking__read {"uris": "<uri>"}; search for more with mcp__openviking__search {"query": "\u2026"}. They are deferred tools: call them through DeferExecuteTool with toolName and params.';
var OPEN_TAG = '<openviking-context source="recall">';
var CLOSE_TAG = "</openviking-context>";
function renderRecallBlock(items, budgetTokens) {
  if (items.length === 0) return "";
  const frame = [OPEN_TAG, RECALL_TOOLS_LINE, CLOSE_TAG];
  let used = frame.reduce((sum, line) => sum + estimateTokens(line) + 1, 0);
  const lines = [];
  for (const item of items) {
    const full = memoryElement(item, item.text);
    const fullCost = estimateTokens(full) + 1;
    if (used + fullCost <= budgetTokens) {
      lines.push(full);
      used += fullCost;
      continue;
    }
    if (lines.length === 0) {
      const opening = memoryElement(item, "");
      const room = Math.max(0, Math.floor((budgetTokens - used - estimateTokens(opening) - 8) / (items.length > 1 ? 2 : 1)));
      const clipped = memoryElement(item, `${clipToTokens(escapeBlockText(item.text), room)}\u2026`, true);
      lines.push(clipped);
      used += estimateTokens(clipped) + 1;
      continue;
    }
    const bare = memoryElement(item, "");
    const bareCost = estimateTokens(bare) + 1;
    if (used + bareCost > budgetTokens) break;
    lines.push(bare);
    used += bareCost;
  }
  return [OPEN_TAG, RECALL_TOOLS_LINE, ...lines, CLOSE_TAG].join("\n");
}
function memoryElement(item, text2, escaped = false) {
  const attributes = [`uri="${escapeAttribute(item.uri)}"`];
  if (item.category) attributes.push(`type="${escapeAttribute(item.category)}"`);
  if (item.score !== void 0 && Number.isFinite(item.score)) attributes.push(`score="${item.score.toFixed(2)}"`);
  const body = text2.trim();
  if (body === "") return `<memory ${attributes.join(" ")}/>`;
  return `<memory ${attributes.join(" ")}>
${escaped ? body : escapeBlockText(body)}
</memory>`;
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
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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
function writeFileAtomicSync(path, data) {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, data, { encoding: "utf8", flag: "wx", mode: PRIVATE_FILE_MODE });
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
    }
    throw error;
  }
}
function readJsonSync(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return void 0;
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

// src/recall/rank.ts
var TEMPORAL = /\b(?:when|yesterday|today|last|ago|recent(?:ly)?|before|after|date|week|month)\b|昨天|今天|上次|之前|最近/i;
var PREFERENCE = /\b(?:prefer(?:s|red|ence)?|like|favou?rite|style|usually|always|never)\b|喜欢|偏好|习惯/i;
function rankFindItems(results, options) {
  const queryTerms = termsOf(options.query);
  const temporal = TEMPORAL.test(options.query);
  const preference = PREFERENCE.test(options.query);
  const scored = results.flatMap((result) => [...result.memories, ...result.skills]).filter((item) => (item.score ?? 0) >= options.scoreThreshold).map((item) => ({ item, rank: rankOf(item, queryTerms, temporal, preference) })).sort((a, b) => b.rank - a.rank);
  const seen = /* @__PURE__ */ new Set();
  const picked = [];
  for (const { item } of scored) {
    const key = dedupeKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(toRecalled(item, options.maxContentChars));
    if (picked.length >= options.limit) break;
  }
  return picked;
}
function rankOf(item, queryTerms, temporal, preference) {
  let rank = Math.min(1, Math.max(0, item.score ?? 0));
  if (item.level === 2 || item.uri.endsWith(".md")) rank += 0.12;
  if (temporal && item.uri.includes("/events/")) rank += 0.1;
  if (preference && item.uri.includes("/preferences/")) rank += 0.08;
  if (queryTerms.size > 0) {
    const docTerms = termsOf(`${item.uri} ${item.abstract ?? ""}`);
    let shared = 0;
    for (const term of queryTerms) if (docTerms.has(term)) shared++;
    rank += 0.2 * (shared / queryTerms.size);
  }
  return rank;
}
function dedupeKey(item) {
  if (/\/(?:events|cases)\//.test(item.uri)) return `uri:${item.uri}`;
  const abstract = item.abstract?.trim().toLowerCase();
  return abstract ? `abstract:${abstract}` : `uri:${item.uri}`;
}
function toRecalled(item, maxContentChars) {
  const abstract = (item.abstract ?? "").replace(/\s+/g, " ").trim();
  const text2 = abstract.length > maxContentChars ? `${abstract.slice(0, maxContentChars)}...` : abstract;
  const category = categoryOf(item.uri);
  return { uri: item.uri, text: text2, ...category ? { category } : {}, ...item.score !== void 0 ? { score: item.score } : {} };
}
function categoryOf(uri) {
  const memory = /\/memories\/([a-z]+)\//.exec(uri)?.[1];
  if (memory) return memory;
  return /\/skills\//.test(uri) ? "skills" : void 0;
}
function termsOf(text2) {
  return new Set(text2.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((term) => term.length >= 3));
}

// src/recall/tierCache.ts
var TIER_DECISION_TTL_MS = 60 * 6e4;
var CACHE_NAME = "recall-tier";
function isFallbackTier(value) {
  return value === "recall" || value === "find";
}
async function startingTier(dataDir, baseUrl, now) {
  return await readCached(cacheFile(dataDir, CACHE_NAME), cacheKey(baseUrl), now, isFallbackTier) ?? "context";
}
async function rememberFallbackTier(dataDir, baseUrl, tier, now) {
  await writeCached(cacheFile(dataDir, CACHE_NAME), cacheKey(baseUrl), tier, now + TIER_DECISION_TTL_MS, now);
}

// src/recall/cascade.ts
var CONTEXT_FIELDS = /\b(?:mode|purpose|dedup_turns|max_tokens|session_id|query_expansion|quotas)\b/;
var UNKNOWN_FIELD = /extra|forbid|not permitted|unexpected|unrecognized|unknown field/i;
var RECALL_ROUTE_QUOTAS = { events: 5, entities: 4, preferences: 1, experiences: 0 };
async function recallMemories(request) {
  const baseUrl = request.credentials.baseUrl;
  let tier = await startingTier(request.dataDir, baseUrl, request.now());
  if (tier === "context") {
    const result = await request.client.searchContext(contextBody(request));
    if (!result.ok && isUnsupported(result)) {
      tier = "recall";
      await rememberFallbackTier(request.dataDir, baseUrl, tier, request.now());
    } else return fromContextResult("context", result, request.settings.recallLimit);
  }
  if (tier === "recall") {
    const result = await request.client.recall(recallBody(request));
    if (!result.ok && isUnsupported(result)) {
      tier = "find";
      await rememberFallbackTier(request.dataDir, baseUrl, tier, request.now());
    } else return fromContextResult("recall", result, request.settings.recallLimit);
  }
  return findTier(request);
}
function contextBody(request) {
  const { settings, ovSessionId: ovSessionId2, query } = request;
  const body = { query, mode: "context", purpose: "coding", score_threshold: settings.scoreThreshold, max_tokens: settings.recallMaxTokens };
  if (ovSessionId2 !== "") {
    body.session_id = ovSessionId2;
    if (settings.recallDedupTurns > 0) body.dedup_turns = settings.recallDedupTurns;
  }
  return body;
}
function recallBody(request) {
  const { settings, query } = request;
  return {
    query,
    quotas: RECALL_ROUTE_QUOTAS,
    max_chars: Math.max(settings.recallMaxContentChars * settings.recallLimit, 1e3),
    min_score: settings.scoreThreshold,
    render: false
  };
}
function isUnsupported(failure2) {
  if (failure2.status === 404 || failure2.status === 405 || failure2.status === 501) return true;
  if (failure2.status !== 400 && failure2.status !== 422) return false;
  const text2 = `${failure2.message} ${JSON.stringify(failure2.details ?? {})}`;
  return CONTEXT_FIELDS.test(text2) && UNKNOWN_FIELD.test(text2);
}
function fromContextResult(tier, result, limit) {
  if (!result.ok) return { status: "failed", tier, failure: result };
  if (result.result.stats?.rewrite === "no_relevant") return { status: "empty", tier };
  const items = result.result.entries.slice(0, limit).map(fromEntry);
  return items.length === 0 ? { status: "empty", tier } : { status: "hits", tier, items };
}
function fromEntry(entry) {
  return {
    uri: entry.uri,
    text: entry.text ?? "",
    ...entry.category !== void 0 ? { category: entry.category } : {},
    ...entry.score !== void 0 ? { score: entry.score } : {}
  };
}
async function findTier(request) {
  const { client, settings, query } = request;
  const space = await resolveUserSpace(client, { dataDir: request.dataDir, credentials: request.credentials, now: request.now() });
  if (space === void 0) return { status: "failed", tier: "find", failure: { ok: false, status: 0, code: "NO_USER_SPACE", message: "user space could not be resolved", retryable: true } };
  const limit = Math.max(2 * settings.recallLimit, 8);
  const find = (folder) => client.find({ query, target_uri: `viking://user/${space}/${folder}`, limit, score_threshold: 0 });
  const [memories, skills] = await Promise.all([find("memories"), find("skills")]);
  const answered = [memories, skills].flatMap((result) => result.ok ? [result.result] : []);
  if (answered.length === 0) return { status: "failed", tier: "find", failure: memories.ok ? skills : memories };
  const items = rankFindItems(answered, { query, scoreThreshold: settings.scoreThreshold, limit: settings.recallLimit, maxContentChars: settings.recallMaxContentChars });
  return items.length === 0 ? { status: "empty", tier: "find" } : { status: "hits", tier: "find", items };
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

// src/recall/skip.ts
var MAX_QUERY_CHARS = 4e3;
var HOST_CONTINUATIONS = [
  /^\s*(?:Stop|SubagentStop) hook:/i,
  /^\s*Hook timed out after \d+\s*ms/i,
  /^\s*Please continue (?:with )?the conversation (?:based on|from where)/i
];
var SLASH_COMMAND = /^\/[A-Za-z][\w:.-]*(?=\s|$)/;
function decideRecall(input, settings, workspace) {
  if (!settings.enabled) return skip("disabled");
  if (!settings.autoRecall) return skip("auto-recall-off");
  if (isBypassed(settings, input.session_id, workspace)) return skip("bypassed");
  if (input.is_internal_continuation === true) return skip("internal-continuation");
  const prompt = typeof input.prompt === "string" ? input.prompt : "";
  if (/<openviking-context\b/i.test(prompt)) return skip("already-injected");
  if (HOST_CONTINUATIONS.some((pattern) => pattern.test(prompt))) return skip("host-continuation");
  const typed = codeBuddyUserText(prompt);
  if (typed === "") return skip(prompt.trim() === "" ? "too-short" : "host-markup-only");
  if (HOST_CONTINUATIONS.some((pattern) => pattern.test(typed))) return skip("host-continuation");
  const command = SLASH_COMMAND.exec(typed);
  const query = (command ? typed.slice(command[0].length) : typed).trim();
  if (command && query === "") return skip("slash-command");
  if ([...query].length < Math.max(1, settings.minQueryLength)) return skip("too-short");
  return { recall: true, query: query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query };
}
function skip(reason) {
  return { recall: false, reason };
}

// src/store/status.ts
import { join as join3 } from "node:path";
var MAX_STATUS_SESSIONS = 20;
var MAX_DETAIL_CHARS = 80;
function statusFile(dataDir, name) {
  return join3(dataDir, "status", `${name}.json`);
}
async function recordServerStatus(dataDir, status) {
  const detail = status.detail?.slice(0, MAX_DETAIL_CHARS);
  const value = { up: status.up, at: status.at, ...detail ? { detail } : {} };
  await writeQuietly(statusFile(dataDir, "server"), value);
}
async function recordActivity(dataDir, kind, sessionId, mark) {
  if (!sessionId) return;
  const file = statusFile(dataDir, kind);
  const current = readMarks(readJsonSync(file));
  delete current[sessionId];
  const newest = Object.entries(current).sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_STATUS_SESSIONS - 1);
  await writeQuietly(file, Object.fromEntries([[sessionId, { at: mark.at, count: mark.count }], ...newest]));
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
async function writeQuietly(file, value) {
  try {
    writeFileAtomicSync(file, JSON.stringify(value));
  } catch {
  }
}

// src/recall/status.ts
function serverAnswered(outcome) {
  return outcome.status !== "failed" || outcome.failure.status > 0 && outcome.failure.status < 500;
}
async function recordRecall(dataDir, ovSessionId2, outcome, at) {
  const up = serverAnswered(outcome);
  const detail = outcome.status === "failed" ? outcome.failure.code : void 0;
  await Promise.all([
    recordActivity(dataDir, "recall", ovSessionId2, { at, count: outcome.status === "hits" ? outcome.items.length : 0 }),
    recordServerStatus(dataDir, { up, at, ...up || detail === void 0 ? {} : { detail } })
  ]);
}

// src/config/configFile.ts
import { readFileSync as readFileSync2, statSync } from "node:fs";
import { isAbsolute, join as join4, resolve } from "node:path";
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
  return readFileSync2(path, "utf8");
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
  if (path.startsWith("~/")) return join4(homeDir, path.slice(2));
  return isAbsolute(path) ? path : resolve(homeDir, path);
}
function displayPath(path, homeDir) {
  const home = homeDir.endsWith("/") ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}

// src/config/credentials.ts
import { join as join5 } from "node:path";
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
    const path = expandHome(override ?? join5("~", ".openviking", fallbackName), homeDir);
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

// src/store/paths.ts
import { isAbsolute as isAbsolute2, join as join6 } from "node:path";
var DATA_DIR_VARIABLES = ["CODEBUDDY_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA", "OPENVIKING_CODEBUDDY_DATA_DIR"];
var DEFAULT_DATA_SUBDIR = "openviking";
function describeDataDir(env, homeDir) {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== void 0) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== void 0) return { dir: join6(configDir, DEFAULT_DATA_SUBDIR), source: "env:CODEBUDDY_CONFIG_DIR" };
  return { dir: join6(homeDir, ".codebuddy", DEFAULT_DATA_SUBDIR), source: "default" };
}
function resolveDataDir(env, homeDir) {
  return describeDataDir(env, homeDir).dir;
}
function usablePath(raw, homeDir) {
  const value = raw?.trim();
  if (!value || value.includes("${")) return void 0;
  const expanded = value === "~" ? homeDir : value.startsWith("~/") ? join6(homeDir, value.slice(2)) : value;
  return isAbsolute2(expanded) ? expanded : void 0;
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

// src/session/ids.ts
var OV_SESSION_PREFIX = "cb-";
function sanitizeIdPart(raw) {
  return raw.trim().replace(/[^A-Za-z0-9._-]/g, "-");
}
function ovSessionId(hostSessionId) {
  const id = sanitizeIdPart(hostSessionId);
  return id === "" ? "" : `${OV_SESSION_PREFIX}${id}`;
}

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

// src/stages/prompt.ts
var SETTLE_GRACE_MS = 150;
async function runPrompt(input, deps) {
  if (input.hook_event_name !== "UserPromptSubmit") return PASS;
  try {
    const ctx = openStageContext(input, deps, (settings) => settings.promptDeadlineMs);
    const decision = decideRecall(input, ctx.settings, ctx.workspace);
    if (!decision.recall) {
      deps.log.debug("recall skipped", { reason: decision.reason });
      return PASS;
    }
    return await withTimeout(recallBlock(ctx, decision.query, deps), Math.max(0, ctx.deadlineAt - deps.now()) + SETTLE_GRACE_MS, PASS);
  } catch (error) {
    deps.log.warn("recall failed; passing the prompt through", { error: error instanceof Error ? error.message : String(error) });
    return PASS;
  }
}
async function recallBlock(ctx, query, deps) {
  const outcome = await recallMemories({
    client: ctx.client,
    settings: ctx.settings,
    credentials: ctx.config.credentials,
    dataDir: ctx.dataDir,
    ovSessionId: ctx.ovSessionId,
    query,
    now: deps.now
  });
  await recordRecall(ctx.dataDir, ctx.ovSessionId, outcome, deps.now());
  if (outcome.status === "failed") {
    deps.log.warn("recall failed; no memories for this prompt", { tier: outcome.tier, code: outcome.failure.code, status: outcome.failure.status });
    return PASS;
  }
  deps.log.debug("recall done", { tier: outcome.tier, hits: outcome.status === "hits" ? outcome.items.length : 0 });
  if (outcome.status === "empty") return PASS;
  const text2 = renderRecallBlock(outcome.items, ctx.settings.recallTokenBudget);
  return text2 === "" ? PASS : { kind: "context", text: text2 };
}
export {
  runPrompt
};
