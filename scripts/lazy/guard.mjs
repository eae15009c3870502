// src/hook/deps.ts
var PASS = Object.freeze({ kind: "pass" });

// src/openviking/narrow.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// src/stages/guard.ts
function fileToolFamily(toolName) {
  switch (toolName) {
    case "Read":
    case "NotebookRead":
      return "read";
    case "LS":
      return "list";
    case "Glob":
      return "glob";
    case "Grep":
      return "grep";
    case "Write":
    case "NotebookEdit":
      return "write";
    case "Edit":
    case "MultiEdit":
      return "edit";
    default:
      return void 0;
  }
}
var PATH_KEYS = ["file_path", "filePath", "filepath", "path", "paths", "notebook_path", "uri", "edits"];
var MAX_DEPTH = 6;
var VIKING_URI = /^\s*["'`]?(viking:\/[^\s"'`]*)/i;
var MAX_ECHO_CHARS = 300;
async function runGuard(input, _deps) {
  return guardDecision(input);
}
function guardDecision(input) {
  if (input.hook_event_name !== "PreToolUse" || typeof input.tool_name !== "string") return PASS;
  const family = fileToolFamily(input.tool_name);
  if (family === void 0 || !isRecord(input.tool_input)) return PASS;
  const found = findVikingPath(input.tool_input, family === "glob");
  if (found === void 0) return PASS;
  return { kind: "deny", reason: guardReason(input.tool_name, family, found, input.tool_input) };
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
    return uri === void 0 ? void 0 : uri.replace(/^viking:\/+/i, "viking://");
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
function guardReason(toolName, family, found, toolInput) {
  const uri = clip(found.uri);
  const call = suggestedCall(family, found, toolInput);
  return [
    `${uri} is an OpenViking URI, not a local path, so ${toolName} cannot use it.`,
    `Use ${call.alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: call.tool, params: call.params })}`,
    `OpenViking MCP tools are deferred on CodeBuddy: call them through DeferExecuteTool with toolName and params (or load them with ToolSearch); where ${call.tool} is listed directly, call it with the same params.`
  ].join("\n");
}
var MCP = "mcp__openviking__";
function suggestedCall(family, found, toolInput) {
  const uri = clip(found.uri);
  switch (family) {
    case "read":
      return { tool: `${MCP}read`, alternatives: `${MCP}read`, params: { uris: uri } };
    case "list":
      return { tool: `${MCP}list`, alternatives: `${MCP}list`, params: { uri } };
    case "glob":
      return { tool: `${MCP}glob`, alternatives: `${MCP}glob (or ${MCP}list for one folder)`, params: globParams(found, toolInput) };
    case "grep":
      return {
        tool: `${MCP}grep`,
        alternatives: `${MCP}grep (or ${MCP}search to search by meaning)`,
        params: { uri, pattern: stringArg(toolInput.pattern) ?? "<regex>" }
      };
    case "write":
      return { tool: `${MCP}write`, alternatives: `${MCP}write`, params: { uri, content: "<the text>" } };
    case "edit":
      return { tool: `${MCP}edit`, alternatives: `${MCP}edit`, params: { uri, old_string: "<exact old text>", new_string: "<new text>" } };
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
export {
  fileToolFamily,
  findVikingPath,
  guardDecision,
  guardReason,
  runGuard
};
