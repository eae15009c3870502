/**
 * The one table of the plugin's tunables.
 *
 * Each `Settings` field is defined here once: its env name, type, default,
 * bounds and a one-line description. The loader (settings.ts), the table of
 * docs/settings.md (knobTable.ts) and doctor all read this table, so a knob
 * cannot exist in one place and be missing from another. Its type
 * (`KnobTable`, knobTypes.ts) makes the compiler insist on exactly one entry
 * per `Settings` field with a default of the field's type.
 *
 * The entries live in one file per concern (switches, recall, budgets and
 * deadlines, capture and commit, bypass and queue, runtime), so each stays
 * short; this file only assembles them, in the order docs/settings.md lists
 * them. A knob belongs to one part alone (tests/config/knobs.test.ts checks
 * that no two parts define the same field, which a spread would hide).
 *
 * Env names follow openviking-api.md §5.3/§5.4 where the reference plugins
 * already have one; the rest are new and use the same `OPENVIKING_` prefix.
 * Defaults follow the thin-hook runtime unless noted.
 *
 * @module
 */
import type { Knob, KnobTable } from '../knobTypes.js';
import { BUDGET_KNOBS } from './budgets.js';
import { CAPTURE_KNOBS } from './capture.js';
import { QUEUE_KNOBS } from './queue.js';
import { RECALL_KNOBS } from './recall.js';
import { RUNTIME_KNOBS } from './runtime.js';
import { SWITCH_KNOBS } from './switches.js';

/** The parts, in table order (for the one-owner check). */
export const KNOB_PARTS: readonly Partial<KnobTable>[] = [
  SWITCH_KNOBS,
  RECALL_KNOBS,
  BUDGET_KNOBS,
  CAPTURE_KNOBS,
  QUEUE_KNOBS,
  RUNTIME_KNOBS,
];

export const KNOB_TABLE: KnobTable = {
  ...SWITCH_KNOBS,
  ...RECALL_KNOBS,
  ...BUDGET_KNOBS,
  ...CAPTURE_KNOBS,
  ...QUEUE_KNOBS,
  ...RUNTIME_KNOBS,
};

/** The table as a list, in declaration order. */
export function listKnobs(): Knob[] {
  return Object.entries(KNOB_TABLE).map(([key, knob]) => ({ ...knob, key }) as Knob);
}
