// src/hook/main.ts
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

// src/protocol/envelope.ts
function acceptsContext(event) {
  return event === "SessionStart" || event === "UserPromptSubmit";
}
function encodeStageResult(event, result) {
  if (result.kind === "context" && acceptsContext(event) && result.text !== "") {
    return JSON.stringify({ decision: "approve", hookSpecificOutput: { hookEventName: event, additionalContext: result.text } });
  }
  if (result.kind === "deny" && event === "PreToolUse") {
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: result.reason }
    });
  }
  return "";
}

// src/openviking/narrow.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
function parseHookInput(text) {
  const value = parseJson(text);
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
function parseJson(text) {
  const trimmed = text.charCodeAt(0) === 65279 ? text.slice(1) : text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return void 0;
  }
}

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

// src/hook/dispatch.ts
async function dispatchHook(text, options) {
  const input = parseHookInput(text);
  if (input === null) return "";
  const route = options.routeFor(input.hook_event_name);
  if (route === void 0) return "";
  options.onRoute?.(route);
  let deps;
  try {
    deps = options.createDeps();
    const stage = await route.load();
    const result = await withTimeout(stage(input, deps), route.safetyMs - options.elapsedMs(), "timeout");
    if (result === "timeout") {
      deps.log.warn("stage exceeded its budget; answering pass-through", { event: input.hook_event_name, budgetMs: route.safetyMs });
      return "";
    }
    return encodeStageResult(input.hook_event_name, result);
  } catch (error) {
    deps?.log.warn("stage failed; answering pass-through", { event: input.hook_event_name, error: describeError(error) });
    return "";
  }
}
function describeError(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

// src/hook/log.ts
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
var SECRET_KEY = /key|token|secret|passw|authori[sz]ation|cookie|credential/i;
var MAX_FIELD_CHARS = 2e3;
function isDebugOn(env) {
  return /^(1|true|yes|on)$/i.test(env.OPENVIKING_DEBUG?.trim() ?? "");
}
function debugLogPath(env, homeDir2) {
  const configured = env.OPENVIKING_DEBUG_LOG?.trim();
  return configured ? configured : join(homeDir2, ".openviking", "logs", "codebuddy-hooks.log");
}
function createLogger(host) {
  const debugOn = isDebugOn(host.env);
  const path = debugLogPath(host.env, host.homeDir);
  const append = (level, message, fields) => {
    if (!debugOn) return;
    const line = JSON.stringify({ ts: new Date(host.now()).toISOString(), pid: host.pid, level, message, ...redactFields(fields) });
    appendLine(path, line);
  };
  return {
    debug: (message, fields) => append("debug", message, fields),
    warn: (message, fields) => {
      append("warn", message, fields);
      swallow(() => host.writeStderr(`openviking: ${message}
`));
    }
  };
}
function redactFields(fields) {
  const safe = {};
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (key === "__proto__") continue;
    safe[key] = SECRET_KEY.test(key) ? "[redacted]" : clipValue(value);
  }
  return safe;
}
function clipValue(value) {
  return typeof value === "string" && value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}\u2026` : value;
}
function appendLine(path, line) {
  swallow(() => {
    mkdirSync(dirname(path), { recursive: true, mode: 448 });
    appendFileSync(path, `${line}
`, { mode: 384 });
  });
}
function swallow(write) {
  try {
    write();
  } catch {
  }
}

// src/hook/nodeDeps.ts
import { join as join2 } from "node:path";
function createNodeDeps(host) {
  const flushes = [];
  const deps = {
    now: host.now,
    env: host.env,
    cwd: host.cwd,
    homeDir: host.homeDir,
    pluginRoot: host.pluginRoot,
    http: lazyNodeHttp(),
    spawnDetached: (args, stdin) => {
      if (host.runJobInProcess !== void 0) {
        flushes.push(host.runJobInProcess(args, stdin).catch((error) => {
          host.log.warn("in-process job failed", { error: error instanceof Error ? error.message : String(error) });
        }));
        return true;
      }
      const flushed = spawnHookProcess(host, args, stdin);
      if (flushed === void 0) return false;
      flushes.push(flushed);
      return true;
    },
    log: host.log,
    killNow: host.killNow
  };
  return {
    deps,
    settle: async (capMs) => {
      await withTimeout(Promise.all(flushes), capMs, void 0);
    }
  };
}
function lazyNodeHttp() {
  let loaded;
  return async (request) => {
    loaded ??= import("./lazy/http.mjs").then((m) => m.nodeHttpTransport);
    return (await loaded)(request);
  };
}
function spawnHookProcess(host, args, stdin) {
  try {
    const child = host.loadSpawn()(host.execPath, [join2(host.pluginRoot, "scripts", "hook.mjs"), ...args], {
      cwd: host.cwd,
      env: { ...host.env },
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      windowsHide: true
    });
    child.on("error", (error) => host.log.warn("detached spawn failed", { error: error.message }));
    child.unref();
    const pipe = child.stdin;
    if (pipe === null) return void 0;
    return new Promise((resolve2) => {
      pipe.on("error", () => resolve2());
      pipe.end(stdin, () => resolve2());
    });
  } catch (error) {
    host.log.warn("detached spawn failed", { error: error instanceof Error ? error.message : String(error) });
    return void 0;
  }
}

// src/hook/routes.ts
var PREFLIGHT_SAFETY_MS = 3e3;
function routeFor(event) {
  switch (event) {
    case "SessionStart":
      return { load: () => import("./lazy/start.mjs").then((m) => m.runStart), safetyMs: 12e3 };
    case "UserPromptSubmit":
      return { load: () => import("./lazy/prompt.mjs").then((m) => m.runPrompt), safetyMs: 8e3 };
    case "PreToolUse":
      return { load: () => import("./lazy/guard.mjs").then((m) => m.runGuard), safetyMs: 3e3 };
    case "Stop":
    case "SubagentStop":
      return { load: loadCapture, safetyMs: 8e3 };
    case "SubagentStart":
      return { load: loadCapture, safetyMs: 3e3 };
    case "SessionEnd":
      return { load: loadCapture, safetyMs: 12e3 };
    case "PreCompact":
      return { load: loadCapture, safetyMs: 55e3 };
    default:
      return void 0;
  }
}
function loadCapture() {
  return import("./lazy/capture.mjs").then((m) => m.runCapture);
}

// src/hook/stdin.ts
var MAX_STDIN_BYTES = 4 * 1024 * 1024;
function readBoundedStdin(source, maxBytes, timeoutMs) {
  if (source.isTTY) return Promise.resolve({ status: "tty", text: "" });
  return new Promise((resolve2) => {
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      source.removeAllListeners();
      source.on("error", () => void 0);
      if (status !== "complete") source.destroy();
      resolve2({ status, text: status === "complete" ? Buffer.concat(chunks).toString("utf8") : "" });
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    source.on("data", (chunk) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) return finish("overflow");
      chunks.push(buffer);
    });
    source.on("end", () => finish("complete"));
    source.on("close", () => finish("complete"));
    source.on("error", () => finish("error"));
  });
}

// src/hook/main.ts
var SETTLE_CAP_MS = 1e3;
var STDIN_TIMEOUT_MS = PREFLIGHT_SAFETY_MS - 500;
var WORKER_MAX_STDIN_BYTES = 16 * 1024 * 1024;
var WORKER_STDIN_TIMEOUT_MS = 1e4;
var WORKER_LIFETIME_MS = 10 * 6e4;
var startedAt = Date.now();
function builtin(id) {
  return process.getBuiltinModule?.(id) ?? createRequire(import.meta.url)(id);
}
function homeDir() {
  return process.env.HOME || builtin("node:os").homedir();
}
function buildLogger() {
  return createLogger({ env: process.env, homeDir: homeDir(), now: Date.now, pid: process.pid, writeStderr: (line) => process.stderr.write(line) });
}
function buildDeps(runJobInProcess) {
  const env = process.env;
  const log = buildLogger();
  const pluginRoot = env.CODEBUDDY_PLUGIN_ROOT || env.CLAUDE_PLUGIN_ROOT || fileURLToPath(new URL("..", import.meta.url));
  return createNodeDeps({
    env,
    cwd: process.cwd(),
    homeDir: homeDir(),
    pluginRoot: resolve(pluginRoot),
    execPath: process.execPath,
    loadSpawn: () => builtin("node:child_process").spawn,
    now: Date.now,
    log,
    runJobInProcess,
    killNow: () => process.kill(process.pid, "SIGKILL")
  });
}
function logJobEnd(log, job) {
  log.debug("process done", { job, ms: Date.now() - startedAt, maxRssKb: process.resourceUsage().maxRSS });
}
var exiting = false;
function exitWith(stdout, code) {
  if (exiting) return;
  exiting = true;
  if (stdout === "") process.exit(code);
  process.stdout.write(stdout, () => process.exit(code));
}
var safetyTimer;
function armSafety(untilMsSinceStart, code) {
  clearTimeout(safetyTimer);
  safetyTimer = setTimeout(() => exitWith("", code), Math.max(0, untilMsSinceStart - (Date.now() - startedAt)));
  safetyTimer.unref();
}
async function runHookEvent() {
  armSafety(PREFLIGHT_SAFETY_MS, 0);
  const stdin = await readBoundedStdin(process.stdin, MAX_STDIN_BYTES, STDIN_TIMEOUT_MS);
  if (stdin.status !== "complete") return exitWith("", 0);
  let built;
  const stdout = await dispatchHook(stdin.text, {
    routeFor,
    createDeps: () => (built ??= buildDeps()).deps,
    elapsedMs: () => Date.now() - startedAt,
    onRoute: (route) => armSafety(route.safetyMs, 0)
  });
  await built?.settle(SETTLE_CAP_MS);
  exitWith(stdout, 0);
}
async function runDetachedHookEvent() {
  armSafety(WORKER_LIFETIME_MS, 0);
  const stdin = await readBoundedStdin(process.stdin, WORKER_MAX_STDIN_BYTES, WORKER_STDIN_TIMEOUT_MS);
  if (stdin.status !== "complete") return exitWith("", 0);
  let built;
  const runJobInProcess = async (args, job) => {
    const [command, ...rest] = args;
    if (command !== "worker" || built === void 0) return;
    const { runWorker } = await import("./lazy/worker.mjs");
    await runWorker(rest, job, built.deps);
  };
  await dispatchHook(stdin.text, {
    routeFor,
    createDeps: () => (built ??= buildDeps(runJobInProcess)).deps,
    elapsedMs: () => 0
  });
  await built?.settle(WORKER_LIFETIME_MS);
  if (built) logJobEnd(built.deps.log, "detached");
  exitWith("", 0);
}
async function runDoctorCommand(argv) {
  const { runDoctor } = await import("./lazy/doctor.mjs");
  const nodeDeps = buildDeps();
  const code = await runDoctor(argv, nodeDeps.deps);
  await nodeDeps.settle(SETTLE_CAP_MS);
  exitWith("", code);
}
async function runWorkerCommand(argv) {
  armSafety(WORKER_LIFETIME_MS, 0);
  const stdin = await readBoundedStdin(process.stdin, WORKER_MAX_STDIN_BYTES, WORKER_STDIN_TIMEOUT_MS);
  const { runWorker } = await import("./lazy/worker.mjs");
  const nodeDeps = buildDeps();
  const code = await runWorker(argv, stdin.status === "complete" ? stdin.text : "", nodeDeps.deps);
  await nodeDeps.settle(SETTLE_CAP_MS);
  logJobEnd(nodeDeps.deps.log, `worker ${argv[0] ?? ""}`);
  exitWith("", code);
}
async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "doctor") return runDoctorCommand(rest);
  if (command === "worker") return runWorkerCommand(rest);
  if (command === "detached") return runDetachedHookEvent();
  return runHookEvent();
}
function failSafe(error) {
  try {
    buildLogger().warn("hook process failed; answering pass-through", { error: error instanceof Error ? error.message : String(error) });
  } catch {
  }
  exitWith("", process.argv[2] === "doctor" ? 1 : 0);
}
process.on("uncaughtException", failSafe);
process.on("unhandledRejection", failSafe);
main(process.argv.slice(2)).catch(failSafe);
