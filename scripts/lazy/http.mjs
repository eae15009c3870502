// src/openviking/nodeHttp.ts
import { request as httpRequest } from "node:http";

// src/openviking/transportError.ts
function transportError(kind, message) {
  return Object.assign(new Error(message), { kind });
}
function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

// src/openviking/nodeHttp.ts
var MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
function createNodeHttpTransport(options = {}) {
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return async (request) => {
    let url;
    try {
      url = new URL(request.url);
    } catch {
      throw transportError("network", `invalid URL: ${request.url}`);
    }
    const send = await requestFunctionFor(url);
    return exchange(send, url, request, maxBytes);
  };
}
var nodeHttpTransport = createNodeHttpTransport();
async function requestFunctionFor(url) {
  if (url.protocol === "http:") return httpRequest;
  if (url.protocol === "https:") return (await import("node:https")).request;
  throw transportError("network", `unsupported protocol ${url.protocol}`);
}
function exchange(send, url, request, maxBytes) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const headers = { ...request.headers };
    if (request.body !== void 0) headers["Content-Length"] = String(Buffer.byteLength(request.body));
    const req = send(url, { method: request.method, headers, agent: false }, (res) => {
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(transportError("too_large", `response of ${declared} bytes exceeds the ${maxBytes}-byte cap`));
        return;
      }
      const chunks = [];
      let received = 0;
      res.on("data", (chunk) => {
        received += chunk.length;
        if (received > maxBytes) {
          fail(transportError("too_large", `response exceeds the ${maxBytes}-byte cap`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", (error) => fail(transportError("network", `response interrupted: ${errorMessage(error)}`)));
      res.on("close", () => fail(transportError("network", "connection closed before the response was complete")));
    });
    const timer = setTimeout(() => {
      fail(transportError("timeout", `no complete response within ${request.timeoutMs} ms`));
    }, Math.max(1, request.timeoutMs));
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    }
    req.on("error", (error) => fail(transportError("network", errorMessage(error))));
    req.end(request.body);
  });
}
function flattenHeaders(raw) {
  const flat = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== void 0) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
export {
  MAX_RESPONSE_BYTES,
  createNodeHttpTransport,
  nodeHttpTransport
};
