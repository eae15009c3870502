// The hooks module (hooks.json "modules"): built by build.mjs from src/mod/register.ts; do not edit.

// src/util/json.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/protocol/stage.ts
var PASS = Object.freeze({ kind: "pass" });

// src/protocol/hostTools.ts
var PLUGIN = "openviking";
function mcpToolName(host, tool) {
  return host === "claude-code" ? `mcp__plugin_${PLUGIN}_${PLUGIN}__${tool}` : `mcp__${PLUGIN}__${tool}`;
}
function deferredToolsClause(host) {
  return host === "claude-code" ? 'load them with ToolSearch {"query": "select:<tool name>"}, then call them directly' : "call them through DeferExecuteTool with toolName and params";
}
function toolNamesFor(host, choice) {
  if (choice === void 0 || choice.mcpEnabled) return { host, bundled: true, name: (tool) => mcpToolName(host, tool) };
  const prefix = userToolPrefix(choice.mcpServer);
  return { host, bundled: false, name: (tool) => `${prefix}${tool}` };
}
function userToolPrefix(server) {
  const value = server.trim();
  if (value.startsWith("mcp__")) return value.endsWith("__") ? value : `${value}__`;
  return `mcp__${value.replace(/[^a-zA-Z0-9_-]/g, "_")}__`;
}
function asToolNames(tools) {
  return typeof tools === "string" ? toolNamesFor(tools) : tools;
}

// src/stages/commandGuard.ts
var COMMAND_TOOLS = /* @__PURE__ */ new Set(["Skill", "SlashCommand"]);
function pluginCommandNamed(toolInput) {
  if (!isRecord(toolInput)) return void 0;
  for (const key of ["skill", "command", "name"]) {
    const value = toolInput[key];
    if (typeof value !== "string") continue;
    const name = value.trim().replace(/^\/+/, "").split(/\s/)[0]?.toLowerCase() ?? "";
    if (name.startsWith("openviking:")) return name.slice(0, 64);
  }
  return void 0;
}
function commandDenyReason(command) {
  return [
    `/${command} is a command for the user to type, not for the model: the host would run any !\`\u2026\` in its arguments without asking.`,
    "Do what it does with the OpenViking MCP tools instead (search, read, remember, forget), or tell the user they can type the command."
  ].join("\n");
}

// src/stages/guardRule.ts
var FILE_TOOL_FAMILIES = {
  Read: "read",
  NotebookRead: "read",
  LS: "list",
  Glob: "glob",
  Grep: "grep",
  Write: "write",
  NotebookEdit: "write",
  Edit: "edit",
  MultiEdit: "edit"
};
var GUARDED_TOOLS = [...Object.keys(FILE_TOOL_FAMILIES), ...COMMAND_TOOLS];
function fileToolFamily(toolName) {
  return Object.hasOwn(FILE_TOOL_FAMILIES, toolName) ? FILE_TOOL_FAMILIES[toolName] : void 0;
}
var PATH_KEYS = ["file_path", "filePath", "filepath", "path", "paths", "notebook_path", "uri", "edits"];
var MAX_DEPTH = 6;
var VIKING_URI = /(?:^\s*["'`]?(?=viking:[/\\])|[/\\])(viking:(?:[/\\][^\s"'`]*|$))/i;
var MAX_ECHO_CHARS = 300;
function guardDenyReason(toolName, toolInput, tools) {
  if (COMMAND_TOOLS.has(toolName)) {
    const command = pluginCommandNamed(toolInput);
    return command === void 0 ? void 0 : commandDenyReason(command);
  }
  const family = fileToolFamily(toolName);
  if (family === void 0 || !isRecord(toolInput)) return void 0;
  const found = findVikingPath(toolInput, family === "glob");
  return found === void 0 ? void 0 : guardReason(toolName, family, found, toolInput, tools);
}
function findVikingPath(toolInput, patternIsPath) {
  const keys = patternIsPath ? ["pattern", ...PATH_KEYS] : PATH_KEYS;
  for (const key of keys) {
    if (!Object.hasOwn(toolInput, key)) continue;
    const uri = findInValue(toolInput[key], keys, 0);
    if (uri !== void 0) return { uri, key };
  }
  return void 0;
}
function findInValue(value, keys, depth) {
  if (typeof value === "string") {
    const uri = VIKING_URI.exec(value)?.[1];
    return uri === void 0 ? void 0 : canonicalUri(uri.slice("viking:".length));
  }
  if (depth >= MAX_DEPTH) return void 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const uri = findInValue(item, keys, depth + 1);
      if (uri !== void 0) return uri;
    }
    return void 0;
  }
  if (!isRecord(value)) return void 0;
  for (const key of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const uri = findInValue(value[key], keys, depth + 1);
    if (uri !== void 0) return uri;
  }
  return void 0;
}
function canonicalUri(afterScheme) {
  const path = afterScheme.startsWith("\\") ? afterScheme.replace(/\\/g, "/") : afterScheme;
  return `viking://${path.replace(/^\/+/, "")}`;
}
function guardReason(toolName, family, found, toolInput, tools) {
  const names = asToolNames(tools);
  const host = names.host;
  const uri = clip(found.uri);
  const call = suggestedCall(family, found, toolInput, (tool) => names.name(tool));
  const params = JSON.stringify(call.params);
  const first = `${uri} is an OpenViking URI, not a local path, so ${toolName} cannot use it.`;
  if (host === "claude-code") {
    return [
      first,
      `Use ${call.alternatives} instead: ${call.tool} ${params}`,
      `OpenViking MCP tools are deferred in Claude Code: if ${call.tool} is not loaded yet, load it first with ToolSearch ${JSON.stringify({ query: `select:${call.tool}` })}, then call it with the params above.`
    ].join("\n");
  }
  return [
    first,
    `Use ${call.alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: call.tool, params: call.params })}`,
    `OpenViking MCP tools are deferred on CodeBuddy: ${deferredToolsClause(host)} (or load them with ToolSearch); where ${call.tool} is listed directly, call it with the same params.`
  ].join("\n");
}
function suggestedCall(family, found, toolInput, mcp) {
  const uri = clip(found.uri);
  switch (family) {
    case "read":
      return { tool: mcp("read"), alternatives: mcp("read"), params: { uris: uri } };
    case "list":
      return { tool: mcp("list"), alternatives: mcp("list"), params: { uri } };
    case "glob":
      return { tool: mcp("glob"), alternatives: `${mcp("glob")} (or ${mcp("list")} for one folder)`, params: globParams(found, toolInput) };
    case "grep":
      return {
        tool: mcp("grep"),
        alternatives: `${mcp("grep")} (or ${mcp("search")} to search by meaning)`,
        params: { uri, pattern: stringArg(toolInput.pattern) ?? "<regex>" }
      };
    case "write":
      return { tool: mcp("write"), alternatives: mcp("write"), params: { uri, content: "<the text>" } };
    case "edit":
      return { tool: mcp("edit"), alternatives: mcp("edit"), params: { uri, old_string: "<exact old text>", new_string: "<new text>" } };
  }
}
function globParams(found, toolInput) {
  const wildcard = found.uri.search(/[*?[{]/);
  if (wildcard >= 0) {
    const cut = found.uri.lastIndexOf("/", wildcard) + 1;
    return { pattern: clip(found.uri.slice(cut)) || "**/*", uri: clip(found.uri.slice(0, cut)) };
  }
  const pattern = found.key === "pattern" ? void 0 : stringArg(toolInput.pattern);
  return { pattern: pattern ?? "**/*", uri: clip(found.uri) };
}
function stringArg(value) {
  return typeof value === "string" && value.trim() !== "" && !VIKING_URI.test(value) ? clip(value) : void 0;
}
function clip(text) {
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}\u2026` : text;
}

// src/mod/handoff.ts
var kinds = {
  guard: { open: 0, givenUp: false },
  prompt: { open: 0, givenUp: false },
  start: { open: 0, givenUp: false }
};
async function withHandoff($, kind, processId, next) {
  const state = kinds[kind];
  if (processId === void 0 || state.givenUp) return next();
  state.open += 1;
  if (state.open === 1 && !await writeFlag($, kind, processId)) {
    state.open -= 1;
    state.givenUp = true;
    return next();
  }
  try {
    return await next();
  } finally {
    state.open -= 1;
    if (state.open === 0) await writeFlag($, kind, void 0);
  }
}
async function writeFlag($, kind, value) {
  try {
    let answer;
    switch (kind) {
      case "guard":
        answer = await $.env.set("OPENVIKING_MODULE_GUARD", value);
        break;
      case "prompt":
        answer = await $.env.set("OPENVIKING_MODULE_PROMPT", value);
        break;
      case "start":
        answer = await $.env.set("OPENVIKING_MODULE_START", value);
        break;
    }
    return answer?.deny === void 0;
  } catch {
    return false;
  }
}

// src/mod/hostProfile.ts
var asked;
function hostProfile($) {
  asked ??= detectHost($);
  return asked;
}
async function detectHost($) {
  try {
    const env = await $.process.hookEnv();
    const processId = typeof env?.CLAUDE_PID === "string" && env.CLAUDE_PID !== "" ? env.CLAUDE_PID : void 0;
    const hookEnv = Object.fromEntries(Object.entries(env ?? {}).filter((entry) => typeof entry[1] === "string"));
    return { kind: processId !== void 0 || env?.CLAUDECODE === "1" ? "claude-code" : "codebuddy", processId, hookEnv };
  } catch {
    return { kind: "codebuddy", processId: void 0, hookEnv: {} };
  }
}

// src/config/scalars.ts
var FALSE_WORDS = /* @__PURE__ */ new Set(["0", "false", "no", "off"]);
function parseSwitch(raw) {
  const text = raw?.trim().toLowerCase();
  if (!text) return void 0;
  return !FALSE_WORDS.has(text);
}

// src/mod/moduleSwitch.ts
var options = {};
var decided;
function rememberOptions(given) {
  options = given ?? {};
}
function moduleIsOn($) {
  decided ??= readSwitch($);
  return decided;
}
async function readSwitch($) {
  let fromEnv;
  try {
    fromEnv = parseSwitch(await $.env.get("OPENVIKING_MODULE"));
  } catch {
    fromEnv = void 0;
  }
  if (fromEnv !== void 0) return fromEnv;
  const option = options["module"];
  if (typeof option === "boolean") return option;
  return parseSwitch(typeof option === "string" ? option : void 0) ?? true;
}

// src/mod/guard.ts
function toolArguments(e) {
  return isRecord(e.input) ? e.input : e;
}
async function guardToolCall($, e, next) {
  if (!await moduleIsOn($)) return next(e);
  const host = await hostProfile($);
  const reason = guardDenyReason(String(e.tool), toolArguments(e), host.kind);
  if (reason !== void 0) return { deny: reason };
  return withHandoff($, "guard", host.processId, () => next(e));
}

// src/recall/escape.ts
function unescapeAttribute(value) {
  return value.replace(/&(amp|quot|lt|gt);/g, (_entity, name) => ATTRIBUTE_ENTITIES[name] ?? "");
}
var ATTRIBUTE_ENTITIES = { amp: "&", quot: '"', lt: "<", gt: ">" };

// src/recall/block.ts
var OPEN_TAG = '<openviking-context source="recall">';
var CLOSE_TAG = "</openviking-context>";
var MEMORY_OPENING = /^<memory ((?:[a-z]+="[^"]*" ?)+)\/?>/gm;
var ATTRIBUTE = /([a-z]+)="([^"]*)"/g;
function recalledInBlock(text) {
  const found = [];
  let from = text.indexOf(OPEN_TAG);
  while (from !== -1) {
    const end = text.indexOf(CLOSE_TAG, from);
    const block = text.slice(from, end === -1 ? void 0 : end);
    for (const opening of block.matchAll(MEMORY_OPENING)) {
      const attributes = new Map([...(opening[1] ?? "").matchAll(ATTRIBUTE)].map((m) => [m[1] ?? "", unescapeAttribute(m[2] ?? "")]));
      const uri = attributes.get("uri");
      if (uri === void 0 || uri === "") continue;
      const score = Number(attributes.get("score"));
      const category = attributes.get("type");
      found.push({ uri, ...category ? { category } : {}, ...attributes.has("score") && Number.isFinite(score) ? { score } : {} });
    }
    from = end === -1 ? -1 : text.indexOf(OPEN_TAG, end);
  }
  return found;
}

// src/mod/card/turns.ts
var MAX_TURNS = 50;
var MAX_SESSIONS = 20;
var MAX_QUERY_CHARS = 80;
function recalledInContext(additionalContext) {
  const texts = (additionalContext ?? []).filter((entry) => typeof entry === "string");
  return texts.flatMap((text) => recalledInBlock(text)).map(({ uri, score }) => score === void 0 ? { uri } : { uri, score });
}
function openTurn(turns, recalled) {
  const n = (turns.at(-1)?.n ?? 0) + 1;
  return [...turns, { n, recalled: [...recalled], lookups: [] }].slice(-MAX_TURNS);
}
function addLookup(turns, lookup) {
  const last = turns.at(-1);
  if (last === void 0) return [...turns];
  return [...turns.slice(0, -1), { ...last, lookups: [...last.lookups, lookup] }];
}
function addReply(replies, turns, id) {
  const n = turns.at(-1)?.n;
  if (n === void 0) return [...replies];
  return [...replies.filter((reply) => reply.n !== n && reply.id !== id), { id, n }].slice(-MAX_TURNS);
}
function turnOfReply(turns, replies, id) {
  if (id === void 0) return void 0;
  const n = replies.find((reply) => reply.id === id)?.n;
  return n === void 0 ? void 0 : turns.find((turn) => turn.n === n);
}
function hasCard(turn) {
  return turn.recalled.length > 0 || turn.lookups.length > 0;
}
function lookupToolOf(toolName) {
  for (const host of ["claude-code", "codebuddy"]) {
    const prefix = mcpToolName(host, "");
    if (toolName.startsWith(prefix) && toolName.length > prefix.length) return toolName.slice(prefix.length);
  }
  return void 0;
}
var LOOKUP_TOOLS = new RegExp(`^(?:${["claude-code", "codebuddy"].map((host) => mcpToolName(host, "")).join("|")})`);
function lookupOf(tool, args, answer) {
  const asked2 = ["query", "uris", "uri", "pattern"].map((key) => args[key]).find((value) => typeof value === "string" || Array.isArray(value));
  const query = (Array.isArray(asked2) ? asked2.join(", ") : String(asked2 ?? "")).slice(0, MAX_QUERY_CHARS);
  const text = typeof answer.text === "string" ? answer.text : "";
  return { tool, query, hits: (text.match(/viking:\/\/[^\s"'<>)\]]+/g) ?? []).length, isError: answer.deny !== void 0 || answer.isError === true };
}
function setExpanded(expanded, turns, which, isOpen) {
  const ns = which === "all" ? turns.map((turn) => turn.n) : [which];
  return isOpen ? [.../* @__PURE__ */ new Set([...expanded, ...ns])] : expanded.filter((n) => !ns.includes(n));
}

// src/mod/card/persist.ts
var TURNS = { plugin: "openviking", key: "cardTurns" };
var REPLIES = { plugin: "openviking", key: "cardReplies" };
var EXPANDED = { plugin: "openviking", key: "cardExpanded" };
var SESSIONS_KEY = "card:sessions";
async function readTurns($) {
  const held = await $.state.get(TURNS);
  return { value: held.value ?? [], version: held.version };
}
async function readReplies($) {
  return (await $.state.get(REPLIES)).value ?? [];
}
async function readExpanded($) {
  return (await $.state.get(EXPANDED)).value ?? [];
}
async function editTurns($, change) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const held = await readTurns($);
    if ((await $.state.set(TURNS, change(held.value).slice(-MAX_TURNS), { ifVersion: held.version })).isSet) return;
  }
}
async function writeReplies($, replies) {
  await $.state.set(REPLIES, replies);
}
async function writeExpanded($, expanded) {
  await $.state.set(EXPANDED, expanded);
}
async function snapshotKey($) {
  const id = await $.session.id();
  return id ? `card:${id}` : void 0;
}
async function saveSnapshot($) {
  const key = await snapshotKey($);
  if (key === void 0) return;
  const data = { turns: (await readTurns($)).value, replies: await readReplies($), expanded: await readExpanded($) };
  await $.store.set(key, data);
  const listed = await $.store.get(SESSIONS_KEY);
  const sessions = [...Array.isArray(listed) ? listed.filter((entry) => typeof entry === "string" && entry !== key) : [], key];
  for (const old of sessions.slice(0, -MAX_SESSIONS)) await $.store.delete(old);
  await $.store.set(SESSIONS_KEY, sessions.slice(-MAX_SESSIONS));
}
async function restoreSnapshot($) {
  if ((await readTurns($)).value.length > 0) return;
  const key = await snapshotKey($);
  const stored = key === void 0 ? void 0 : await $.store.get(key);
  if (!isCardData(stored)) return;
  await $.state.set(TURNS, stored.turns);
  await $.state.set(REPLIES, stored.replies);
  await $.state.set(EXPANDED, stored.expanded);
}
function isCardData(value) {
  if (typeof value !== "object" || value === null) return false;
  const data = value;
  return Array.isArray(data.turns) && Array.isArray(data.replies) && Array.isArray(data.expanded);
}

// src/mod/card/view.ts
function cardSummary(turn) {
  return `OpenViking \xB7 ${turn.recalled.length} recalled \xB7 ${turn.lookups.length} looked up`;
}
function cardRows(turn) {
  return [
    ...turn.recalled.map((memory) => ({ key: `r-${memory.uri}`, text: `  \u2605 ${memory.uri} `, detail: memory.score === void 0 ? "" : memory.score.toFixed(2) })),
    ...turn.lookups.map((lookup, index) => ({ key: `l-${index}`, text: `  \u2315 ${lookup.tool} \u201C${lookup.query}\u201D `, detail: lookup.isError ? "failed" : `${lookup.hits} URIs` }))
  ];
}
function cardTree(elements, turn, isOpen, onToggle) {
  const { Box, Text, Button } = elements;
  const rows = isOpen ? cardRows(turn).map((row) => h(Text, { key: row.key, wrap: "truncate-end" }, row.text, h(Text, { dimColor: true }, row.detail))) : [];
  return h(
    Box,
    { flexDirection: "column", marginLeft: 2 },
    h(Box, { flexDirection: "row", gap: 1 }, h(Text, { color: "cyan" }, cardSummary(turn)), h(Button, { key: `openviking-card-${turn.n}`, label: isOpen ? "collapse" : "expand", plain: true, dimColor: true, onPress: onToggle })),
    ...rows
  );
}
function withCard(elements, beneath, card) {
  const { Box } = elements;
  if (typeof beneath === "object" && beneath !== null && "tree" in beneath) {
    return { ...beneath, tree: h(Box, { flexDirection: "column" }, beneath.tree, card) };
  }
  return h(Box, { flexDirection: "column" }, beneath, card);
}

// src/mod/card/hooks.ts
var CARD_COMMAND = "openviking-card";
var USAGE = `Usage: /${CARD_COMMAND} expand | collapse`;
async function noteFailure($, where, error) {
  try {
    await $.ui.log(`memory card: ${where} failed: ${error instanceof Error ? error.message : String(error)}`, { to: "debug" });
  } catch {
  }
}
async function cardOnSessionStart($, e, next) {
  if (await moduleIsOn($)) {
    try {
      await restoreSnapshot($);
      await $.command.register({ name: CARD_COMMAND, description: "Expand or collapse the OpenViking memory cards", argumentHint: "expand | collapse" });
    } catch (error) {
      await noteFailure($, "session start", error);
    }
  }
  return next(e);
}
async function cardOnCommand($, e, next) {
  if (!await moduleIsOn($)) return next(e);
  const verb = e.args.trim().toLowerCase();
  if (verb !== "expand" && verb !== "collapse") return { text: USAGE, isTextDisplayOnly: true };
  await toggle($, "all", verb === "expand");
  return { text: `OpenViking cards ${verb === "expand" ? "expanded" : "collapsed"}.`, isTextDisplayOnly: true };
}
async function cardOnPrompt($, e, next) {
  const result = await next(e);
  if (!await moduleIsOn($)) return result;
  try {
    const recalled = recalledInContext(Array.isArray(result?.additionalContext) ? result.additionalContext : void 0);
    await editTurns($, (turns) => openTurn(turns, recalled));
  } catch (error) {
    await noteFailure($, "prompt", error);
  }
  return result;
}
async function cardOnLookup($, e, next) {
  const ran = await next(e);
  const tool = lookupToolOf(String(e.tool));
  if (tool === void 0 || !await moduleIsOn($)) return ran;
  try {
    const lookup = lookupOf(tool, toolArguments(e), ran);
    await editTurns($, (turns) => addLookup(turns, lookup));
  } catch (error) {
    await noteFailure($, "lookup", error);
  }
  return ran;
}
async function cardOnAppend($, e, next) {
  const stored = await next(e);
  if (e.door !== "response" || e.agentId !== void 0 || stored?.deny !== void 0 || typeof stored?.uuid !== "string") return stored;
  if (!(stored.message?.content ?? []).some((block) => block?.type === "text")) return stored;
  try {
    if (!await moduleIsOn($)) return stored;
    const turns = (await readTurns($)).value;
    if (turns.length > 0) await writeReplies($, addReply(await readReplies($), turns, stored.uuid));
  } catch {
  }
  return stored;
}
async function cardOnTurnComplete($, e, next) {
  const done = await next(e);
  try {
    if (await moduleIsOn($)) await saveSnapshot($);
  } catch (error) {
    await noteFailure($, "snapshot", error);
  }
  return done;
}
async function cardOnRender($, e, next) {
  if (!await moduleIsOn($)) return next(e);
  let drawn;
  try {
    const turn = turnOfReply((await readTurns($)).value, await readReplies($), e.requestId);
    if (turn !== void 0 && hasCard(turn)) {
      const isOpen = (await readExpanded($)).includes(turn.n);
      const elements = $.ui.resolve(e);
      drawn = { elements, card: cardTree(elements, turn, isOpen, () => toggle($, turn.n, !isOpen)) };
    }
  } catch (error) {
    await noteFailure($, "render", error);
  }
  const beneath = await next(e);
  return drawn === void 0 ? beneath : withCard(drawn.elements, beneath, drawn.card);
}
async function toggle($, which, isOpen) {
  const turns = (await readTurns($)).value;
  await writeExpanded($, setExpanded(await readExpanded($), turns, which, isOpen));
  await saveSnapshot($);
}

// src/mod/register.ts
function register(on, options2) {
  rememberOptions(options2);
  on("tool.call", { tool: GUARDED_TOOLS }, guardToolCall);
  on("tool.call", { tool: LOOKUP_TOOLS }, cardOnLookup);
  on("session.start", cardOnSessionStart);
  on("command.run", { command: CARD_COMMAND }, cardOnCommand);
  on("classic.UserPromptSubmit", cardOnPrompt);
  on("session.append", cardOnAppend);
  on("turn.complete", cardOnTurnComplete);
  on("ui.render", { component: "AssistantMessage" }, cardOnRender);
}
export {
  register
};
