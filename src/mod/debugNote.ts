/**
 * A line in the host's debug log from the module (never the transcript: a
 * `$.ui.log` there is itself a row, FC16). Never throws.
 *
 * @module
 */
import type { Engine } from './host.js';

export function debugNote($: Engine, text: string): void {
  try {
    $.ui.log(`openviking: ${text}`, { to: 'debug' });
  } catch {
    // nowhere left to say it
  }
}
