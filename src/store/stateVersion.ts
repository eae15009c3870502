/**
 * The version of the per-session state files' format (`{ version, ...fields }`),
 * on its own so a reader of one state (profile/startState.ts) needs nothing
 * of the state store's locking (store/sessionState.ts).
 *
 * @module
 */
export const SESSION_STATE_VERSION = 1;
