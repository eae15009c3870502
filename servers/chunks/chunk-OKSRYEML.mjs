/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);

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

// src/util/errors.ts
function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
function errorCode(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const code = error.code;
  return typeof code === "string" ? code : void 0;
}

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

export {
  isRecord,
  parseJson,
  errorMessage,
  errorCode,
  displayUrl,
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
  failureToRpcError
};
