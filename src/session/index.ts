/**
 * The session vocabulary other stages import: id derivation, bypass rules,
 * workspace identity and shared lock names.
 *
 * @module
 */
export { OV_SESSION_PREFIX, SUBAGENT_SEPARATOR, ovSessionId, ovSubagentSessionId, sanitizeIdPart } from './ids.js';
export { globToRegExp, isBypassed } from './bypass.js';
export type { BypassSettings } from './bypass.js';
export { resolveWorkspace } from './workspace.js';
export { captureLockPath, startLockPath } from './locks.js';
