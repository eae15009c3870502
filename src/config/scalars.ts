/**
 * The two pieces of knob reading that code outside the configuration layer
 * needs without loading it: how a switch's text reads as a boolean, and
 * where the debug log goes by default. The hook entry reads
 * `OPENVIKING_RESIDENT` and, in a process that never reads its
 * configuration, `OPENVIKING_DEBUG` with them; importing the whole knob
 * table there would put ~9 KB of descriptions on every hook's start-up.
 * knobs.ts and settings.ts use the same definitions, so both readings agree.
 *
 * @module
 */

/** The only words that switch a boolean knob off (openviking-api.md §5.3); anything else set is on. */
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** A switch's text as a boolean; undefined when unset or blank. */
export function parseSwitch(raw: string | undefined): boolean | undefined {
  const text = raw?.trim().toLowerCase();
  if (!text) return undefined;
  return !FALSE_WORDS.has(text);
}

/** The debug log's default path (`~` is the home directory). */
export const DEFAULT_DEBUG_LOG_PATH = '~/.openviking/logs/codebuddy-hooks.log';
