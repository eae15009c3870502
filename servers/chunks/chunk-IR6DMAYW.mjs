/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in THIRD_PARTY_NOTICES.md at the plugin root. */
import { createRequire as __ovCreateRequire } from 'node:module';
const require = __ovCreateRequire(import.meta.url);
import {
  errorCode,
  errorMessage
} from "./chunk-FYQ2Q3BF.mjs";

// src/openviking/transportError.ts
function transportError(kind, message, cause) {
  return Object.assign(new Error(message), cause === void 0 ? { kind } : { kind, cause });
}
function transportFailureCause(error) {
  const cause = error?.cause;
  return typeof cause === "string" ? cause : void 0;
}
var NEVER_CONNECTED = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH"]);
function socketError(error, prefix = "") {
  const code = errorCode(error);
  return transportError(
    code !== void 0 && NEVER_CONNECTED.has(code) ? "unsent" : "network",
    `${prefix}${errorMessage(error)}`,
    code
  );
}

export {
  transportError,
  transportFailureCause,
  socketError
};
