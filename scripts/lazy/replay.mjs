// src/openviking/narrow.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { status: "missing" };
    return { status: "unreadable", reason: errorMessage(error) };
  }
  try {
    return { status: "ok", value: JSON.parse(text) };
  } catch (error) {
    return { status: "corrupt", reason: `invalid JSON (${text.length} chars): ${errorMessage(error)}` };
  }
}
async function readJson(path) {
  const result = await readJsonDetailed(path);
  return result.status === "ok" ? result.value : void 0;
}

// src/store/lock.ts
import { mkdir as mkdir2, readdir, readFile as readFile2, rename as rename2, rm, rmdir, unlink as unlink2, writeFile } from "node:fs/promises";
import { hostname as osHostname } from "node:os";
import { dirname as dirname2, join as join2 } from "node:path";
var OWNER_SUFFIX = ".owner";
var DEFAULT_LOCK_POLL_MS = 25;
async function tryLock(lockPath, options) {
  try {
    return await attemptWithReclaim(lockPath, options);
  } catch (error) {
    return { ok: false, reason: "error", message: errorMessage(error) };
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
  return new Promise((resolve) => setTimeout(resolve, ms));
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
    await writeFile(join2(staging, ownerName), JSON.stringify(owner), { mode: PRIVATE_FILE_MODE, flag: "wx" });
    await setMtime(join2(staging, ownerName), options.now());
    await rename2(staging, lockPath);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (hasErrorCode(error, "EEXIST", "ENOTEMPTY", "EPERM", "EACCES", "ENOTDIR", "EISDIR")) return void 0;
    throw error;
  }
  return ownedLock(lockPath, join2(lockPath, ownerName), options);
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
    await Promise.all(entries.map((name) => rm(join2(lockPath, name), { recursive: true, force: true })));
    await rmdir(lockPath).catch(() => void 0);
    return { kind: "retry" };
  }
  const ownerPath = join2(lockPath, ownerName);
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

// src/store/queueFiles.ts
import { readdir as readdir2 } from "node:fs/promises";
import { join as join3 } from "node:path";
var QUEUE_ENTRY_TYPES = ["addMessages", "commit"];
var PENDING_SUFFIX = ".json";
var CLAIMED_SUFFIX = ".processing";
var TIME_DIGITS = 15;
var SEQ_DIGITS = 6;
var MAX_SEQ = 10 ** SEQ_DIGITS - 1;
var KEY_CHARS = 32;
function queuePaths(queueDir) {
  return {
    pendingDir: join3(queueDir, "pending"),
    deadDir: join3(queueDir, "dead"),
    enqueueLock: join3(queueDir, "enqueue.lock"),
    replayLock: join3(queueDir, "replay.lock")
  };
}
function keyPrefixOf(dedupKey) {
  return dedupKey.slice(0, KEY_CHARS);
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
  if (!isCount(v.createdAt) || !isCount(v.seq) || !isCount(v.attempts)) return void 0;
  if (v.lastError !== void 0 && typeof v.lastError !== "string") return void 0;
  return v;
}
function isCount(value) {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
var MAX_ERROR_CHARS = 500;
function redactError(message) {
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, "<url>").replace(/\b(bearer)\s+\S+/gi, "$1 <redacted>").slice(0, MAX_ERROR_CHARS);
}
async function listDir(dir) {
  try {
    return await readdir2(dir);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return [];
    throw error;
  }
}

// src/store/queueReplay.ts
import { readFile as readFile3, rename as rename3, unlink as unlink3 } from "node:fs/promises";
import { join as join4 } from "node:path";
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
      summary.problems.push(errorMessage(error));
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
    summary.problems.push(errorMessage(error));
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
    const claimedPath = join4(pendingDir, name);
    const claimedAt = await mtimeOf(claimedPath);
    if (claimedAt === void 0) continue;
    if (pass.options.now() - claimedAt <= pass.options.claimTtlMs) {
      const entry = toQueueEntry(await readJson(claimedPath));
      if (entry) pass.blocked.add(entry.sessionId);
      continue;
    }
    const pendingPath = join4(pendingDir, `${parsed.base}${PENDING_SUFFIX}`);
    if (await mtimeOf(pendingPath) !== void 0) await unlink3(claimedPath).catch(() => void 0);
    else await rename3(claimedPath, pendingPath);
    pass.summary.reclaimed++;
  }
}
async function replayEntry(pass, base) {
  const { paths, options, summary } = pass;
  const pendingPath = join4(paths.pendingDir, `${base}${PENDING_SUFFIX}`);
  const claimedPath = join4(paths.pendingDir, `${base}${CLAIMED_SUFFIX}`);
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
    return { verdict: "retry", error: redactError(errorMessage(error)), haltRun: false };
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
  const record = { reason: letter.reason, deadAt, file: `${claim.base}${PENDING_SUFFIX}` };
  if (letter.error !== void 0) record.error = letter.error;
  if (letter.entry !== void 0) record.entry = letter.entry;
  if (letter.raw !== void 0) record.raw = letter.raw;
  try {
    await writeJsonAtomic(join4(paths.deadDir, deadLetterName(deadAt, claim.base)), record);
  } catch (error) {
    summary.problems.push(`dead letter for ${claim.base}: ${errorMessage(error)}`);
    await rename3(claim.claimedPath, claim.pendingPath);
    return;
  }
  await unlink3(claim.claimedPath);
  summary.deadLettered++;
}
async function sweepTempFiles(dir, pass) {
  for (const name of await listDir(dir)) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const path = join4(dir, name);
    const modifiedAt = await mtimeOf(path);
    if (modifiedAt !== void 0 && pass.options.now() - modifiedAt > pass.options.claimTtlMs) {
      await unlink3(path).catch(() => void 0);
    }
  }
}
function parseQuietly(text) {
  try {
    return JSON.parse(text);
  } catch {
    return void 0;
  }
}

// src/transcript/tag-blocks.ts
function tagPattern(names) {
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");
  return new RegExp(`<(/?)(${alternatives})(?=[\\s/>])[^<>]*>`, "gi");
}
function createTagBlockStripper(names, unclosed) {
  const pattern = tagPattern(names);
  return (text) => {
    if (!text.includes("<")) return text;
    const cuts = findCuts(text, new RegExp(pattern), unclosed);
    return cuts.length === 0 ? text : applyCuts(text, cuts);
  };
}
function findCuts(text, pattern, unclosed) {
  const cuts = [];
  const stack = [];
  const openCount = /* @__PURE__ */ new Map();
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
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
    if (unclosed === "drop-rest") cuts.push([firstUnclosed.start, text.length]);
    else for (const opener of stack) cuts.push([opener.start, opener.end]);
  }
  return cuts;
}
function applyCuts(text, cuts) {
  cuts.sort((a, b) => a[0] - b[0]);
  let result = "";
  let position = 0;
  for (const [start, end] of cuts) {
    if (start > position) result += text.slice(position, start);
    if (end > position) position = end;
  }
  return result + text.slice(position);
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
var stripClaudeCommandOutput = createTagBlockStripper(
  ["local-command-stdout", "local-command-stderr", "local-command-caveat", "command-message"],
  "drop-tag"
);

// src/transcript/privacy.ts
var stripInjectedBlocks = createTagBlockStripper(
  ["system-reminder", "openviking-context", "relevant-memories", "relevant-memory"],
  "drop-tag"
);
var stripPrivateBlocks = createTagBlockStripper(["private"], "drop-rest");

// src/transcript/reader.ts
var DEFAULT_CHUNK_BYTES = 1 << 20;

// src/capture/plan.ts
function rememberIds(recentIds, added, limit) {
  if (added.length === 0) return [...recentIds];
  return [...recentIds, ...added].slice(-limit);
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
import { join as join6 } from "node:path";

// src/store/paths.ts
import { isAbsolute, join as join5 } from "node:path";
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
function captureStateFile(dataDir, ovSessionId) {
  return join6(captureDir(dataDir), `${safeFileKey(ovSessionId)}.json`);
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
async function loadCaptureState(dataDir, ovSessionId) {
  const loaded = await loadSessionState(captureStateFile(dataDir, ovSessionId), narrowCaptureState);
  return loaded.status === "found" ? loaded.state : void 0;
}
function saveCaptureState(dataDir, state) {
  return saveSessionState(captureStateFile(dataDir, state.ovSessionId), state);
}
function narrowCaptureState(fields) {
  const { ovSessionId, hostSessionId, workspace } = fields;
  if (typeof ovSessionId !== "string" || ovSessionId === "") return void 0;
  if (typeof hostSessionId !== "string" || typeof workspace !== "string") return void 0;
  const state = emptyCaptureState({ ovSessionId, hostSessionId, workspace });
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
  if (!isCount2(size) || !isCount2(offset) || !isCount2(lastLineStart)) return void 0;
  const cursor = { path, fileId, size, offset, lastLineStart, lastLineHash };
  if (typeof lastRecordId === "string") cursor.lastRecordId = lastRecordId;
  return cursor;
}
function narrowInflight(value) {
  if (!isRecord(value) || typeof value.fingerprint !== "string" || !isRecord(value.before)) return void 0;
  const { live, total } = value.before;
  if (!isCount2(live)) return void 0;
  const before = { live };
  if (isCount2(total)) before.total = total;
  return {
    fingerprint: value.fingerprint,
    recordIds: stringList(value.recordIds),
    before,
    queued: value.queued === true,
    startedAt: typeof value.startedAt === "number" ? value.startedAt : 0
  };
}
function isCount2(value) {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
function count(value) {
  return isCount2(value) ? value : 0;
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

// src/capture/inflight.ts
async function fetchSessionCount(writer) {
  const got = await writer.env.client.getSession(writer.ovSessionId);
  if (!got.ok) return got.status === 404 ? { ok: true, status: 404, result: { count: { live: 0, total: 0 } } } : got;
  const count2 = { live: got.result.message_count ?? 0 };
  if (got.result.total_message_count !== void 0) count2.total = got.result.total_message_count;
  const snapshot = { count: count2 };
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

// src/capture/queueing.ts
import { stat as stat2 } from "node:fs/promises";
import { basename as basename2, join as join7 } from "node:path";
function queueDirOf(dataDir) {
  return storeLayout(dataDir).queueDir;
}
async function hasQueuedWrites(writer) {
  const { pendingDir } = queuePaths(queueDirOf(writer.env.dataDir));
  const waiting = [];
  for (const base of writer.state.queued) {
    if (await exists(join7(pendingDir, base + PENDING_SUFFIX)) || await exists(join7(pendingDir, base + CLAIMED_SUFFIX))) waiting.push(base);
  }
  writer.state.queued = waiting;
  return waiting.length > 0;
}
async function exists(path) {
  try {
    await stat2(path);
    return true;
  } catch {
    return false;
  }
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
async function settleFailure(writer, before, failure, serial) {
  if (failure.status >= 400 && failure.status < 500) {
    writer.state.inflight = void 0;
    writer.count = before;
    if (!serial && (failure.status === 404 || failure.status === 405)) return { kind: "route-missing" };
    return { kind: "failed", failure, ambiguous: false };
  }
  const now = await fetchSessionCount(writer);
  if (!now.ok) return { kind: "failed", failure, ambiguous: true };
  writer.count = now.result.count;
  writer.state.inflight = void 0;
  if (countMoved(before, now.result.count)) {
    return now.result.pendingTokens === void 0 ? { kind: "applied" } : { kind: "applied", pendingTokens: now.result.pendingTokens };
  }
  return { kind: "failed", failure, ambiguous: false };
}
function countAfter(before, live, added) {
  if (live === void 0) return void 0;
  const count2 = { live };
  if (before.total !== void 0 && added !== void 0) count2.total = before.total + added;
  return count2;
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
function captureLockPath(dataDir, ovSessionId) {
  return sessionLockFile(storeLayout(dataDir), ovSessionId, "capture");
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
export {
  replayPendingWrites
};
