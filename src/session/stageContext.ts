/**
 * What every session stage computes first: configuration, the data
 * directory, which session and workspace the event is about, the stage's
 * deadline, and a client bound to that deadline. One function, so start,
 * prompt and capture cannot disagree on the session id or the identity the
 * client speaks as.
 *
 * No network and no file write here; config loading reads at most two small
 * files (src/config/load.ts).
 *
 * @module
 */
import { loadPluginConfig, type LoadConfigInput } from '../config/load.js';
import type { PluginConfig, Settings } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { createOpenVikingClient } from '../openviking/client.js';
import type { OpenVikingClient } from '../openviking/types.js';
import { projectFor, type Project } from '../project/identity.js';
import type { HookInput } from '../protocol/input.js';
import { resolveDataDir } from '../store/paths.js';
import { USER_AGENT } from '../version.js';
import { hostSessionIdOf, ovSessionId } from './ids.js';
import { resolveWorkspace } from './workspace.js';

export interface StageContext {
  config: PluginConfig;
  /** The configured settings with the project's own off-switches applied. */
  settings: Settings;
  /** The workspace's project: peer id and switches (DESIGN D24). */
  project: Project;
  dataDir: string;
  workspace: string;
  /** The host's `session_id`, trimmed ('' when absent). */
  hostSessionId: string;
  /** `cb-…`, or '' when the host sent no session id. */
  ovSessionId: string;
  /** Absolute epoch-ms after which the stage gives up. */
  deadlineAt: number;
  /** Bound to `deadlineAt`: no call starts after it, running calls are cut at it. */
  client: OpenVikingClient;
}

/**
 * The peers a recall speaks as (DESIGN D24): the project's, and under
 * `peer_scope: actor` the ids its memories had before, each with a client
 * of the stage's identity and deadline speaking as it; and those ids on
 * demand, so another project's memories can be told from the project's own.
 */
export function recallPeers(
  ctx: StageContext,
  deps: StageDeps,
): {
  actorPeer?: string;
  earlierPeers?: Array<{ peer: string; client: OpenVikingClient }>;
  earlierPeerIds?: () => readonly string[];
} {
  if (ctx.project.peerId === undefined) return {};
  const actorPeer = ctx.project.peerId;
  const actorScope = ctx.settings.recallPeerScope.trim().toLowerCase() === 'actor';
  // Under `all` the earlier ids were not named (the scan is cached: naming them costs one small read).
  const earlierPeerIds = () =>
    actorScope
      ? ctx.project.earlierPeerIds
      : projectFor(ctx.config, ctx.workspace, deps.homeDir, deps.now(), 'always').project.earlierPeerIds;
  if (!actorScope || ctx.project.earlierPeerIds.length === 0) return { actorPeer, earlierPeerIds };
  const earlierPeers = ctx.project.earlierPeerIds.map((peer) => ({
    peer,
    client: clientFor(ctx.config, deps, ctx.settings.timeoutMs, ctx.deadlineAt, peer),
  }));
  return { actorPeer, earlierPeers, earlierPeerIds };
}

/**
 * Deps of a stage whose process already holds the configuration of their
 * `env` and `homeDir`: the resident helper's ConfigWatch
 * (config/configFiles.ts), which looks at the configuration's files for
 * each request and loads again only when one changed (D16). Absent: the
 * stage loads it (a hook process loads once anyway).
 */
export interface ConfigHolder {
  loadedConfig?(): PluginConfig;
}

/**
 * The configuration of a stage, job or command, loaded once; the logger
 * learns the debug knobs from it (hook/log.ts), so `debug` and
 * `debugLogPath` work from ovcli.conf as from the environment.
 */
export function loadStageConfig(
  deps: Pick<StageDeps, 'env' | 'homeDir' | 'log'> & ConfigHolder,
  options: Pick<LoadConfigInput, 'readStoredOptions'> = {},
): PluginConfig {
  const config =
    deps.loadedConfig !== undefined && options.readStoredOptions === undefined
      ? deps.loadedConfig()
      : loadPluginConfig({ env: deps.env, homeDir: deps.homeDir, ...options });
  deps.log.configure?.({ debug: config.settings.debug, debugLogPath: config.settings.debugLogPath });
  return config;
}

/** @param deadlineMs - picks the stage's whole budget (from now) out of the settings. */
export function openStageContext(
  input: HookInput,
  deps: StageDeps,
  deadlineMs: (settings: Settings) => number,
): StageContext {
  return stageContextFor(input, deps, loadStageConfig(deps), deadlineMs);
}

/** The same, for a configuration already loaded (the capture stage reads its global switches first). */
export function stageContextFor(
  input: HookInput,
  deps: StageDeps,
  config: PluginConfig,
  deadlineMs: (settings: Settings) => number,
): StageContext {
  const workspace = resolveWorkspace(input, deps.env, deps.cwd);
  const { project, settings } = projectFor(config, workspace, deps.homeDir, deps.now());
  const deadlineAt = deps.now() + deadlineMs(settings);
  const hostSessionId = hostSessionIdOf(input);
  return {
    config,
    settings,
    project,
    dataDir: resolveDataDir(deps.env, deps.homeDir),
    workspace,
    hostSessionId,
    ovSessionId: ovSessionId(hostSessionId),
    deadlineAt,
    client: clientFor(config, deps, settings.timeoutMs, deadlineAt, project.peerId),
  };
}

/**
 * A client with the configured identity; `deadlineAt` undefined for
 * background work. `actorPeer` is the project's peer (DESIGN D24): callers
 * without a workspace keep the configured one.
 */
export function clientFor(
  config: PluginConfig,
  deps: StageDeps,
  timeoutMs: number,
  deadlineAt?: number,
  actorPeer = config.credentials.peerId,
): OpenVikingClient {
  const { credentials } = config;
  return createOpenVikingClient({
    baseUrl: credentials.baseUrl,
    apiKey: credentials.apiKey,
    account: credentials.account,
    user: credentials.user,
    actorPeer,
    userAgent: USER_AGENT,
    http: deps.http,
    now: deps.now,
    timeoutMs,
    deadlineAt,
  });
}
