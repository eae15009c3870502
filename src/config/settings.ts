/**
 * Turns the knob table plus the user's values into `Settings`.
 *
 * Sources, first set wins: the knob's `OPENVIKING_*` env variable, then
 * ovcli.conf `plugin.codebuddy.<key>` (the key is the `Settings` field name,
 * e.g. `recallLimit`, mirroring `plugin.claude_code.*` of the Claude Code
 * plugin), then the default. A value that does not parse is ignored with a
 * warning; a number out of bounds is clamped with a warning; both name the
 * source. Booleans are false only for `0`, `false`, `no`, `off` (§5.3), so
 * `OPENVIKING_DEBUG=yes` and `=1` both mean on. An empty env value is unset.
 *
 * @module
 */
import type { Settings, ValueSource } from './types.js';
import { listKnobs, type Knob, type NumberKnob } from './knobs.js';
import { expandHome } from './configFile.js';
import type { JsonRecord } from '../openviking/narrow.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingsInput {
  env: Env;
  homeDir: string;
  /** `plugin.codebuddy` of ovcli.conf, and how to name it in sources. */
  file?: { values: JsonRecord; shownAs: string };
}

export interface SettingsResolution {
  settings: Settings;
  sources: Record<keyof Settings, ValueSource>;
  warnings: string[];
}

type Parsed = { ok: true; value: Settings[keyof Settings] } | { ok: false; problem: string };

const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** Resolves every knob. Never throws. */
export function resolveSettings(input: SettingsInput): SettingsResolution {
  const warnings: string[] = [];
  const settings: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  for (const knob of listKnobs()) {
    const resolved = resolveKnob(knob, input, warnings);
    settings[knob.key] = resolved.value;
    sources[knob.key] = resolved.source;
  }
  return { settings: settings as unknown as Settings, sources: sources as Record<keyof Settings, ValueSource>, warnings };
}

/** The default of a knob as a typed value (`path` defaults expanded). */
export function defaultValue(knob: Knob, homeDir: string): Settings[keyof Settings] {
  if (knob.type === 'path') return expandHome(knob.default, homeDir);
  if (knob.type === 'csv') return [...knob.default];
  return knob.default;
}

function resolveKnob(knob: Knob, input: SettingsInput, warnings: string[]): { value: Settings[keyof Settings]; source: ValueSource } {
  const candidates: Array<[ValueSource, unknown]> = [[`env:${knob.env}`, input.env[knob.env]]];
  if (input.file) candidates.push([`file:${input.file.shownAs}#plugin.codebuddy.${knob.key}`, input.file.values[knob.key]]);
  for (const [source, raw] of candidates) {
    if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) continue;
    const parsed = parseKnobValue(knob, raw, input.homeDir);
    if (parsed.ok) return { value: clamp(knob, parsed.value, source, warnings), source };
    warnings.push(`${source}: ${parsed.problem}; ignoring it`);
  }
  return { value: defaultValue(knob, input.homeDir), source: 'default' };
}

/** Parses one raw value (env text or a JSON value from a file) for a knob. */
export function parseKnobValue(knob: Knob, raw: unknown, homeDir: string): Parsed {
  switch (knob.type) {
    case 'bool':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (typeof raw === 'string') return { ok: true, value: !FALSE_WORDS.has(raw.trim().toLowerCase()) };
      return { ok: false, problem: `expected a boolean, got ${JSON.stringify(raw)}` };
    case 'int':
    case 'float':
      return parseNumber(knob, raw);
    case 'string':
    case 'path':
      if (typeof raw !== 'string') return { ok: false, problem: `expected a string, got ${JSON.stringify(raw)}` };
      return { ok: true, value: knob.type === 'path' ? expandHome(raw.trim(), homeDir) : raw.trim() };
    case 'csv':
      if (typeof raw === 'string') return { ok: true, value: splitList(raw) };
      if (Array.isArray(raw) && raw.every((item) => typeof item === 'string')) return { ok: true, value: raw.map((item) => item.trim()).filter(Boolean) };
      return { ok: false, problem: `expected a comma-separated string or a list of strings, got ${JSON.stringify(raw)}` };
  }
}

function parseNumber(knob: NumberKnob, raw: unknown): Parsed {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value)) return { ok: false, problem: `expected a number, got ${JSON.stringify(raw)}` };
  if (knob.type === 'int' && !Number.isInteger(value)) return { ok: false, problem: `expected a whole number, got ${JSON.stringify(raw)}` };
  return { ok: true, value };
}

function clamp(knob: Knob, value: Settings[keyof Settings], source: ValueSource, warnings: string[]): Settings[keyof Settings] {
  if ((knob.type !== 'int' && knob.type !== 'float') || typeof value !== 'number') return value;
  if (value < knob.min) {
    warnings.push(`${source}: ${value} is below the minimum ${knob.min}; using ${knob.min}`);
    return knob.min;
  }
  if (value > knob.max) {
    warnings.push(`${source}: ${value} is above the maximum ${knob.max}; using ${knob.max}`);
    return knob.max;
  }
  return value;
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
