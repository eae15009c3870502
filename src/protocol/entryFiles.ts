/**
 * The built files a host or a person runs, relative to the plugin root: one
 * owner for their names (hooks.json and the two sh scripts spell them too;
 * tests/hook/contract.test.ts holds those to these).
 *
 * Hooks, the detached dispatcher, workers and residents run the CommonJS
 * entry, which starts no ESM loader (D38); the ES shim beside it runs the
 * same code for the documented `node scripts/hook.mjs <command>`.
 *
 * @module
 */

/** The hook entry every hook command, worker and resident runs. */
export const HOOK_ENTRY = 'scripts/hook.cjs';

/** The documented command line for people (`node scripts/hook.mjs doctor`): an ES module that runs HOOK_ENTRY. */
export const HOOK_SHIM = 'scripts/hook.mjs';
