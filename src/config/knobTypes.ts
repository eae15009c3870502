/**
 * The shape of a knob (knobs/ holds the table itself): one entry per
 * `Settings` field, typed by the field's type, so the table cannot miss a
 * field or give one a default of the wrong type.
 *
 * @module
 */
import type { Settings } from './types.js';

export type KnobType = 'bool' | 'int' | 'float' | 'string' | 'csv' | 'path';

interface KnobCommon {
  /** Environment variable that sets it. */
  env: string;
  description: string;
}

export interface BoolKnob extends KnobCommon {
  type: 'bool';
  default: boolean;
  /**
   * A privacy switch (its purpose is to keep data on the machine): the value
   * a word it does not understand reads as, the one that sends less, with a
   * warning (doctor) and a line at session start. Any other switch keeps its
   * default then, with a warning.
   */
  failClosed?: boolean;
}

export interface NumberKnob extends KnobCommon {
  type: 'int' | 'float';
  default: number;
  min: number;
  max: number;
}

export interface TextKnob extends KnobCommon {
  /** `path` values get `~` expanded against the home directory. */
  type: 'string' | 'path';
  default: string;
  /** A choice: the only values it takes (any case, read lower-cased); anything else warns and keeps the default. */
  choices?: readonly string[];
  /** The shape a value must have (trimmed), and how a warning says it; anything else warns and keeps the default. */
  shape?: { pattern: RegExp; expected: string };
}

export interface CsvKnob extends KnobCommon {
  type: 'csv';
  default: readonly string[];
}

type KnobFor<V> = V extends boolean
  ? BoolKnob
  : V extends number
    ? NumberKnob
    : V extends string[]
      ? CsvKnob
      : TextKnob;

export type KnobTable = { readonly [K in keyof Settings]: KnobFor<Settings[K]> };

/** A knob together with the `Settings` field it sets. */
export type Knob = { [K in keyof Settings]: KnobFor<Settings[K]> & { key: K } }[keyof Settings];
