/**
 * The two pieces of knob reading that code outside the configuration layer
 * needs without loading it: how a switch's text reads as a boolean, and
 * where the debug log goes by default. The hook entry reads
 * `OPENVIKING_RESIDENT` and, in a process that never reads its
 * configuration, `OPENVIKING_DEBUG` with them; importing the whole knob
 * table there would put ~9 KB of descriptions on every hook's start-up.
 * knobs/ and settings.ts use the same definitions, so both readings agree.
 *
 * @module
 */

/** The words a switch understands, any case (openviking-api.md §5.3's, with `y`/`n` and `enabled`/`disabled`). */
const SWITCH_WORDS: Readonly<Record<string, boolean>> = {
  '1': true,
  true: true,
  yes: true,
  y: true,
  on: true,
  enable: true,
  enabled: true,
  '0': false,
  false: false,
  no: false,
  n: false,
  off: false,
  disable: false,
  disabled: false,
};

/**
 * A switch's text as a boolean; undefined when unset, blank, or a word it
 * does not understand (`nah`, `none`). Every reader then keeps the knob's
 * default, except a privacy switch, which reads a word it does not
 * understand as the value that sends less (config/knobs/ `failClosed`,
 * settings.ts; issue 29 item 7).
 */
export function parseSwitch(raw: string | undefined): boolean | undefined {
  const text = raw?.trim().toLowerCase();
  if (!text || !Object.hasOwn(SWITCH_WORDS, text)) return undefined;
  return SWITCH_WORDS[text];
}

/** The words `parseSwitch` understands, for messages. */
export const SWITCH_WORDS_TEXT = 'true/false, yes/no, on/off, 1/0';

/** The debug log's default path (`~` is the home directory). */
export const DEFAULT_DEBUG_LOG_PATH = '~/.openviking/logs/codebuddy-hooks.log';
