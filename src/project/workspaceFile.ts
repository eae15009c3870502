/**
 * One workspace file, `.openviking/config.json` (the team's, committed) or
 * `.openviking/config.local.json` (the user's own), read into the values
 * this plugin takes from it (DESIGN D24). Two spellings are read:
 *
 * - OpenViking's schema (its plugins' `config-schema.mjs`): `{"version": 1,
 *   "peer": {"id", "source"}, "recall": {"enabled", "max_items",
 *   "score_threshold", "peer_scope", "dedup_turns"}, "capture":
 *   {"enabled"}}`;
 * - this plugin's earlier flat keys, so no file breaks: `peerId` (a string,
 *   or `false` for no peer), `enabled`, `autoRecall`, `autoCapture`,
 *   `autoProfile`. Where one file has both spellings, the schema's wins.
 *
 * The file comes with the repository, so it is read like any file a clone
 * may plant (regular file only, at most 64 KiB, inside the workspace root
 * even through symlinks, JSON object without prototype keys) and a
 * `version` other than 1 makes it ignored. Keys that set a server, a key or
 * an account (OpenViking's list) are ignored with a warning, wherever they
 * are; numbers out of range are clamped with a warning; keys OpenViking
 * defines that this plugin does not apply per workspace, and unknown keys,
 * are listed for doctor and otherwise ignored. What the values may change
 * (only ever less memory) is decided in workspaceConfig.ts.
 *
 * @module
 */
import { sep } from 'node:path';
import { loadConfigFile, readTextAtMost } from '../config/configFile.js';
import { KNOB_TABLE } from '../config/knobs/index.js';
import { isRecord, type JsonRecord } from '../util/json.js';
import { isValidPeerId } from './remote.js';
import { parseSwitch, SWITCH_WORDS_TEXT } from '../config/scalars.js';
import { realPath } from '../store/fsUtil.js';

/** The values a workspace file may hold, by this plugin's names. */
export interface WorkspaceValues {
  enabled: boolean;
  autoRecall: boolean;
  autoCapture: boolean;
  autoProfile: boolean;
  /** `false`: this project has no peer. */
  peerId: string | false;
  peerSource: string | string[];
  recallLimit: number;
  scoreThreshold: number;
  recallPeerScope: 'all' | 'actor';
  recallDedupTurns: number;
}

export type WorkspaceField = keyof WorkspaceValues;

/** Which key of which file set a value (`recall.enabled` in `/ws/.openviking/config.json`). */
export interface ValueOrigin {
  key: string;
  path: string;
  /** A privacy switch's value it did not understand (`"nah"`), read as false (issue 29 item 7). */
  unclear?: unknown;
}

export interface WorkspaceLayer {
  path: string;
  values: Partial<WorkspaceValues>;
  origins: Partial<Record<WorkspaceField, ValueOrigin>>;
  /** The file's JSON as read (what an approval of its peer names: project/trust.ts). */
  parsed?: JsonRecord;
}

/** What doctor says of the files: `warnings` are problems, `notes` what was read but not used. */
export interface FileReport {
  warnings: string[];
  notes: string[];
}

type Kind = 'bool' | 'int' | 'float' | 'scope' | 'peerId' | 'source';
interface KeySpec {
  field: WorkspaceField;
  kind: Kind;
  min?: number;
  max?: number;
}

const BOUNDS = {
  recallLimit: { min: KNOB_TABLE.recallLimit.min, max: KNOB_TABLE.recallLimit.max },
  scoreThreshold: { min: KNOB_TABLE.scoreThreshold.min, max: KNOB_TABLE.scoreThreshold.max },
  recallDedupTurns: { min: KNOB_TABLE.recallDedupTurns.min, max: KNOB_TABLE.recallDedupTurns.max },
};

/** Flat keys first: a schema key read later in the same file wins. */
const FLAT_KEYS: Readonly<Record<string, KeySpec>> = {
  enabled: { field: 'enabled', kind: 'bool' },
  autoRecall: { field: 'autoRecall', kind: 'bool' },
  autoCapture: { field: 'autoCapture', kind: 'bool' },
  autoProfile: { field: 'autoProfile', kind: 'bool' },
  peerId: { field: 'peerId', kind: 'peerId' },
};

const SCHEMA_KEYS: Readonly<Record<string, KeySpec>> = {
  'peer.id': { field: 'peerId', kind: 'peerId' },
  'peer.source': { field: 'peerSource', kind: 'source' },
  'recall.enabled': { field: 'autoRecall', kind: 'bool' },
  'recall.max_items': { field: 'recallLimit', kind: 'int', ...BOUNDS.recallLimit },
  'recall.score_threshold': { field: 'scoreThreshold', kind: 'float', ...BOUNDS.scoreThreshold },
  'recall.peer_scope': { field: 'recallPeerScope', kind: 'scope' },
  'recall.dedup_turns': { field: 'recallDedupTurns', kind: 'int', ...BOUNDS.recallDedupTurns },
  'capture.enabled': { field: 'autoCapture', kind: 'bool' },
};

/** OpenViking's workspace keys this plugin does not apply per workspace, and why. */
const NOT_APPLIED: Readonly<Record<string, string>> = {
  'capture.commit_token_threshold': 'the capture worker commits by OPENVIKING_COMMIT_TOKEN_THRESHOLD',
  'bypass.session_patterns': 'use "enabled": false to leave this workspace alone',
};

/** Settings that name a server, a key or an account: never from a file inside a repository (OpenViking's list). */
const CONNECTION_KEYS = new Set(
  'url base_url mcp_url api_key bearer_token root_api_key gateway_token oidc_token ldap_username ldap_password account account_id user user_id auth_mode extra_headers credential_source cli_config_file config_file baseUrl mcpUrl apiKey bearerToken rootApiKey gatewayToken accountId userId authMode extraHeaders credentialSource credentialPath configPath'.split(
    ' ',
  ),
);

/** The sections of OpenViking's schema (any other object at the top is an unknown key). */
const SCHEMA_SECTIONS = ['peer', 'recall', 'capture', 'bypass'];

/** Read and dropped without a word. */
const SILENT_KEYS = new Set(['$schema', 'version', 'min_client_version', 'labels']);

/** Largest workspace file read (OpenViking's plugins read 64 KiB). */
export const MAX_WORKSPACE_FILE_BYTES = 64 * 1024;

/** The layer of the file at `path` under `root`; undefined when it does not exist. Never throws. */
export function readWorkspaceFile(path: string, root: string, report: FileReport): WorkspaceLayer | undefined {
  // Where it leads is settled before a byte is read: a link to ~/.git-credentials is never opened, so no
  // message about it can quote its text. The real path is what is read, so the link cannot change in between.
  const real = realPath(path);
  if (real === undefined) return undefined;
  const layer: WorkspaceLayer = { path, values: {}, origins: {} };
  if (!insideRoot(real, root)) {
    report.warnings.push(`${path} resolves outside the workspace ${root}; ignoring it (not read)`);
    return layer;
  }
  const file = loadConfigFile(real, path, (target) => readTextAtMost(target, MAX_WORKSPACE_FILE_BYTES));
  if (!file.exists) return undefined;
  if (file.warning !== undefined) report.warnings.push(file.warning);
  if (file.value === undefined) return layer;
  const version = file.value['version'];
  if (version !== undefined && version !== 1) {
    report.warnings.push(
      `${path} declares version ${JSON.stringify(version)}; this plugin understands 1; ignoring the file`,
    );
    return layer;
  }
  layer.parsed = file.value;
  for (const key of connectionKeysIn(file.value, ''))
    report.warnings.push(
      `${path}: ignored '${key}': a file in the workspace never sets a server, a key or an account (use ovcli.conf or the environment)`,
    );
  const schemaKeys = readKeys(file.value, layer, report);
  if (version === undefined && schemaKeys > 0)
    report.notes.push(`${path} has no "version": 1; OpenViking's own plugins ignore it until it has`);
  return layer;
}

/**
 * Every top-level key of the file: a flat key is taken, a schema section (`peer`, `recall`, …) is read
 * key by key, anything else is noted. Returns how many schema keys were seen (for the missing-version note).
 */
function readKeys(values: JsonRecord, layer: WorkspaceLayer, report: FileReport): number {
  let schemaKeys = 0;
  for (const [key, value] of Object.entries(values)) {
    if (SILENT_KEYS.has(key) || CONNECTION_KEYS.has(key)) continue;
    const flat = FLAT_KEYS[key];
    if (flat !== undefined) take(layer, key, flat, value, report);
    else if (isRecord(value) && SCHEMA_SECTIONS.includes(key)) schemaKeys += readSection(key, value, layer, report);
    else report.notes.push(`${layer.path}: unknown key '${key}' ignored`);
  }
  return schemaKeys;
}

/** The keys of one schema section, taken when this plugin applies them, else noted (why, or unknown); returns how many were seen. */
function readSection(section: string, values: JsonRecord, layer: WorkspaceLayer, report: FileReport): number {
  let seen = 0;
  for (const [child, childValue] of Object.entries(values)) {
    const dotted = `${section}.${child}`;
    if (CONNECTION_KEYS.has(child)) continue;
    seen++;
    const spec = SCHEMA_KEYS[dotted];
    if (spec !== undefined) take(layer, dotted, spec, childValue, report);
    else report.notes.push(`${layer.path}: '${dotted}' ignored: ${NOT_APPLIED[dotted] ?? 'unknown key'}`);
  }
  return seen;
}

/** Records one key's value in the layer, or says why not. */
function take(layer: WorkspaceLayer, key: string, spec: KeySpec, raw: unknown, report: FileReport): void {
  const value = parseValue(key, spec, raw, layer.path, report);
  if (value === undefined) return;
  const earlier = layer.origins[spec.field];
  if (earlier !== undefined) report.notes.push(`${layer.path}: '${key}' replaces '${earlier.key}' of the same file`);
  (layer.values as Record<string, unknown>)[spec.field] = value;
  layer.origins[spec.field] = { key, path: layer.path, ...(failsClosed(spec, raw) ? { unclear: raw } : {}) };
}

/** A privacy switch (the knob's `failClosed`) set to a word no switch understands: it reads as the value that sends less. */
function failsClosed(spec: KeySpec, raw: unknown): boolean {
  return spec.kind === 'bool' && switchValue(raw) === undefined && privacySwitch(spec.field) !== undefined;
}

function privacySwitch(field: WorkspaceField): boolean | undefined {
  const knob = KNOB_TABLE[field as keyof typeof KNOB_TABLE];
  return knob?.type === 'bool' ? knob.failClosed : undefined;
}

function switchValue(raw: unknown): boolean | undefined {
  return typeof raw === 'boolean' ? raw : parseSwitch(typeof raw === 'string' ? raw : undefined);
}

function parseValue(
  key: string,
  spec: KeySpec,
  raw: unknown,
  path: string,
  report: FileReport,
): WorkspaceValues[WorkspaceField] | undefined {
  const ignored = (why: string) =>
    void report.warnings.push(`${path}: ignored '${key}': ${JSON.stringify(raw)?.slice(0, 80)} ${why}`);
  switch (spec.kind) {
    case 'bool': {
      const value = switchValue(raw);
      if (value !== undefined) return value;
      const closed = privacySwitch(spec.field);
      if (closed === undefined) {
        ignored(`is not true or false (${SWITCH_WORDS_TEXT})`);
        return undefined;
      }
      report.warnings.push(
        `${path}: '${key}': ${JSON.stringify(raw)?.slice(0, 80)} is not true or false (${SWITCH_WORDS_TEXT}); a privacy switch, so it reads as ${String(closed)} (the value that sends less) until it is`,
      );
      return closed;
    }
    case 'int':
    case 'float':
      return parseNumber(key, spec, raw, path, report);
    case 'scope':
      if (raw === 'all' || raw === 'actor') return raw;
      ignored('is not one of all, actor');
      return undefined;
    case 'peerId': {
      if (raw === false || raw === '') return false;
      const id = typeof raw === 'string' ? raw.trim() : '';
      if (isValidPeerId(id)) return id;
      ignored('is not a peer id (^[a-zA-Z0-9_.@-]+$, one @, 128 characters) or false');
      return undefined;
    }
    case 'source':
      if (typeof raw === 'string') return raw.trim();
      if (Array.isArray(raw) && raw.every((item) => typeof item === 'string'))
        return raw.map((item) => item.trim()).filter(Boolean);
      ignored('is not a preset, a template or a list of templates');
      return undefined;
  }
}

function parseNumber(key: string, spec: KeySpec, raw: unknown, path: string, report: FileReport): number | undefined {
  const parsed = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(parsed)) {
    report.warnings.push(`${path}: ignored '${key}': ${JSON.stringify(raw)?.slice(0, 80)} is not a number`);
    return undefined;
  }
  const value = spec.kind === 'int' ? Math.floor(parsed) : parsed;
  const clamped = Math.min(spec.max ?? value, Math.max(spec.min ?? value, value));
  if (clamped !== value)
    report.warnings.push(`${path}: clamped '${key}' from ${value} to ${clamped} (allowed ${spec.min}..${spec.max})`);
  return clamped;
}

/** Dotted paths of connection keys anywhere in `value` (inside `labels` they are labels, not settings). */
function connectionKeysIn(value: JsonRecord, prefix: string): string[] {
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const dotted = prefix === '' ? key : `${prefix}.${key}`;
    if (CONNECTION_KEYS.has(key)) found.push(dotted);
    else if (isRecord(child) && !(prefix === '' && key === 'labels')) found.push(...connectionKeysIn(child, dotted));
  }
  return found;
}

/** Whether the real path `real` is inside `root` (a link to a file elsewhere, e.g. in `$HOME`, is not read). */
function insideRoot(real: string, root: string): boolean {
  const realRoot = realPath(root);
  return realRoot !== undefined && real.startsWith(`${realRoot}${sep}`);
}
