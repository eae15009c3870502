/**
 * A line in the host's debug log from the module (never the transcript: a
 * `$.ui.log` there is itself a row, FC16). Never throws. It passes the
 * printable filter (util/printable.ts): a warning carries a server's words
 * (a failed recall's code and message), and the JSON its fields are written
 * as escapes C0 controls but not DEL, C1, bidi or tag characters.
 *
 * @module
 */
import { printable } from '../util/printable.js';
import type { Engine } from './host.js';

export function debugNote($: Engine, text: string): void {
  try {
    $.ui.log(printable(`openviking: ${text}`), { to: 'debug' });
  } catch {
    // nowhere left to say it
  }
}
