/**
 * The workspace's own settings: `.openviking/config.json` (the team's,
 * committed) and `.openviking/config.local.json` (the user's own; wins key
 * by key) in the workspace root (workspaceRoot.ts), read as
 * workspaceFile.ts describes, merged, then applied to the user's settings
 * (DESIGN D24).
 *
 * Both files travel with a clone (a `config.local.json` can be committed
 * too), so what they may do is narrow: they can only ever make the plugin
 * do LESS with the user's memory, never more, whatever the user set.
 *
 * - Switches (`enabled`, `recall.enabled`/`autoRecall`,
 *   `capture.enabled`/`autoCapture`, `autoProfile`): `false` turns one off;
 *   `true` never turns on what the user's settings turn off (it only undoes
 *   the other file's `false`).
 * - `recall.max_items` may only lower the user's `recallLimit`,
 *   `recall.score_threshold` only raise `scoreThreshold`, `recall.peer_scope`
 *   only narrow `all` to `actor`; `recall.dedup_turns` applies as given
 *   (it only spaces out repeats).
 * - `peer.id`/`peerId` and `peer.source` name the project (identity.ts);
 *   doctor shows them.
 *
 * A value that cannot apply is named by doctor, with why.
 *
 * @module
 */
import { join } from 'node:path';
import type { Settings } from '../config/types.js';
import { WORKSPACE_DIR, WORKSPACE_FILES } from './workspaceRoot.js';
import {
  readWorkspaceFile,
  type FileReport,
  type ValueOrigin,
  type WorkspaceField,
  type WorkspaceLayer,
  type WorkspaceValues,
} from './workspaceFile.js';

/** The settings a workspace file may switch off. */
export const PROJECT_SWITCHES = ['enabled', 'autoRecall', 'autoCapture', 'autoProfile'] as const;
export type ProjectSwitch = (typeof PROJECT_SWITCHES)[number];

export interface WorkspaceConfig extends FileReport {
  /** The files that exist, shared one first. */
  files: string[];
  values: Partial<WorkspaceValues>;
  origins: Partial<Record<WorkspaceField, ValueOrigin>>;
  /** Each file's own values, shared one first (the peer's approval weighs them one by one: project/peerApproval.ts). */
  layers: WorkspaceLayer[];
}

/** Both files of the workspace `root`, merged (the local one wins); undefined when neither exists. Their paths go to `touched` (the cache's change check). */
export function readWorkspaceConfig(root: string, touched: string[]): WorkspaceConfig | undefined {
  const report: FileReport = { warnings: [], notes: [] };
  const paths = WORKSPACE_FILES.map((name) => join(root, WORKSPACE_DIR, name));
  touched.push(...paths);
  const layers = paths
    .map((path) => readWorkspaceFile(path, root, report))
    .filter((layer): layer is WorkspaceLayer => layer !== undefined);
  if (layers.length === 0) return undefined;
  return mergeLayers(layers, report);
}

/** `layers` merged in order (a later one wins key by key; `peer.source` lists join), with `report`'s words. */
export function mergeLayers(layers: WorkspaceLayer[], report: FileReport): WorkspaceConfig {
  const merged: WorkspaceConfig = {
    files: layers.map((layer) => layer.path),
    values: {},
    origins: {},
    layers,
    ...report,
  };
  for (const layer of layers) {
    for (const field of Object.keys(layer.values) as WorkspaceField[]) {
      const value =
        field === 'peerSource' ? mergeSources(merged.values.peerSource, layer.values.peerSource) : layer.values[field];
      (merged.values as Record<string, unknown>)[field] = value;
      merged.origins[field] = layer.origins[field] as ValueOrigin;
    }
  }
  return merged;
}

/** A later list joins an earlier one (unless it starts with `"!reset"`); a string replaces. */
function mergeSources(
  earlier: string | string[] | undefined,
  later: string | string[] | undefined,
): string | string[] | undefined {
  if (!Array.isArray(later)) return later;
  if (later[0] === '!reset') return later.slice(1);
  return Array.isArray(earlier) ? [...new Set([...earlier, ...later])] : later;
}

/** `key: value in path`, how doctor and the switches' reasons name a workspace value. */
export function originText(config: WorkspaceConfig, field: WorkspaceField): string {
  const origin = config.origins[field];
  if (origin === undefined) return '';
  if ('unclear' in origin)
    return `${origin.key}: ${JSON.stringify(origin.unclear)?.slice(0, 40)} (not true or false: read as ${JSON.stringify(config.values[field])}) in ${origin.path}`;
  return `${origin.key}: ${JSON.stringify(config.values[field])} in ${origin.path}`;
}

/** The privacy switches the workspace files set to a word no switch understands (read as off), as `originText` names them. */
export function unclearSwitches(config: WorkspaceConfig | undefined): string[] {
  if (config === undefined) return [];
  return PROJECT_SWITCHES.filter((name) => config.origins[name] !== undefined && 'unclear' in config.origins[name]).map(
    (name) => originText(config, name),
  );
}

/** The switches the workspace turns off, each with the key and file that did it (`recall.enabled: false in …`). */
export function switchesOff(config: WorkspaceConfig | undefined): Partial<Record<ProjectSwitch, string>> {
  const off: Partial<Record<ProjectSwitch, string>> = {};
  for (const name of PROJECT_SWITCHES) if (config?.values[name] === false) off[name] = originText(config, name);
  return off;
}

export interface AppliedWorkspace<S> {
  settings: S;
  /** Values that could not apply, and why (doctor). */
  ignored: string[];
}

type WorkspaceSettings = Pick<
  Settings,
  ProjectSwitch | 'recallLimit' | 'scoreThreshold' | 'recallPeerScope' | 'recallDedupTurns'
>;

/** `settings` with what the workspace may change changed (a copy when there is a workspace file). */
export function applyWorkspace<S extends WorkspaceSettings>(
  settings: S,
  config: WorkspaceConfig | undefined,
): AppliedWorkspace<S> {
  if (config === undefined) return { settings, ignored: [] };
  const next = { ...settings };
  const ignored: string[] = [];
  const { values } = config;
  const cannot = (field: WorkspaceField, why: string) => ignored.push(`ignored ${originText(config, field)}: ${why}`);
  for (const name of PROJECT_SWITCHES) {
    if (values[name] === false) next[name] = false;
    else if (values[name] === true && !settings[name])
      cannot(name, 'a workspace file never turns on what your settings turn off');
  }
  if (values.recallLimit !== undefined) {
    if (values.recallLimit < settings.recallLimit) next.recallLimit = values.recallLimit;
    else if (values.recallLimit > settings.recallLimit)
      cannot('recallLimit', `a workspace file may only lower the recall limit (yours: ${settings.recallLimit})`);
  }
  if (values.scoreThreshold !== undefined) {
    if (values.scoreThreshold > settings.scoreThreshold) next.scoreThreshold = values.scoreThreshold;
    else if (values.scoreThreshold < settings.scoreThreshold)
      cannot(
        'scoreThreshold',
        `a workspace file may only raise the score threshold (yours: ${settings.scoreThreshold})`,
      );
  }
  if (values.recallPeerScope === 'actor') next.recallPeerScope = 'actor';
  else if (values.recallPeerScope === 'all' && settings.recallPeerScope.trim().toLowerCase() === 'actor')
    cannot('recallPeerScope', 'a workspace file may only narrow the peer scope to actor (yours: actor)');
  if (values.recallDedupTurns !== undefined) next.recallDedupTurns = values.recallDedupTurns;
  return { settings: next, ignored };
}
