/**
 * The shared sandbox (the most used: stage, project, security and resident
 * tests): the OpenViking test server (seeded), a fresh HOME and workspace,
 * and the host simulator running the BUILT bundle against them (every test
 * run builds first).
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginProcessesGone, stopResidents } from './detached.js';
import { createHostSim, createPayloads } from './host-sim/index.js';
import type { HostSim, HostVersion, Payloads } from './host-sim/index.js';
import { startOvServer } from './ov-server/index.js';
import type { OvServerOptions, OvTestServer, SeedSpec } from './ov-server/index.js';
import { REPO_ROOT } from './spawn-hook.js';

export const PROFILE_MARKER = 'PROFILE-MARKER-GRACE-HOPPER';
export const RECALL_MARKER = 'RECALL-MARKER-OSPREY-42';

/** A profile, one preference, one entity the recall prompt finds. */
export const DEFAULT_SEED: SeedSpec = {
  files: {
    'memories/profile.md': `# Profile\n\nThe user is Grace (${PROFILE_MARKER}). Writes compilers.`,
    'memories/preferences/default/indentation.md': {
      content: 'Prefers tabs in Go code.',
      abstract: 'Indentation: tabs in Go',
    },
    'memories/entities/default/osprey-deploy.md': {
      content: `The osprey staging cluster deploys with helm upgrade (${RECALL_MARKER}).`,
      abstract: 'How the osprey staging cluster deploys with helm',
    },
  },
};

export const RECALL_PROMPT = 'How do I deploy the osprey staging cluster with helm?';

export interface World {
  server: OvTestServer;
  sim: HostSim;
  home: string;
  workspace: string;
  /** Where the plugin keeps its state (default location under HOME). */
  dataDir: string;
  payloads(options?: { hostVersion?: HostVersion; sessionId?: string }): Payloads;
  dispose(): Promise<void>;
}

export interface WorldOptions {
  server?: OvServerOptions;
  env?: Record<string, string>;
  /** Use an already running server (not closed by dispose). */
  sharedServer?: OvTestServer;
  /** Let hooks use and start the resident helper, as shipped (HostSimOptions.resident). */
  resident?: boolean;
  /** Another plugin directory (a copy of the repo's built plugin); default the repo itself. */
  pluginRoot?: string;
}

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const server = options.sharedServer ?? (await startOvServer({ seed: DEFAULT_SEED, ...options.server }));
  const home = mkdtempSync(join(tmpdir(), 'ov-h-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'ov-h-ws-'));
  const sim = createHostSim({
    pluginRoot: options.pluginRoot ?? REPO_ROOT,
    home,
    workspace,
    resident: options.resident,
    env: { OPENVIKING_URL: server.url, ...options.env },
  });
  return {
    server,
    sim,
    home,
    workspace,
    dataDir: join(home, '.codebuddy', 'openviking'),
    payloads: (payloadOptions = {}) =>
      createPayloads({ workspace, configDir: join(home, '.codebuddy'), ...payloadOptions }),
    dispose: async () => {
      await stopResidents(home);
      // A background job a stage started may still be writing into the sandbox (seen under load: ENOTEMPTY).
      await pluginProcessesGone(home);
      if (options.sharedServer === undefined) await server.close();
      rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      rmSync(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/** The additionalContext the plugin answered with ('' for pass-through). */
export function contextOf(result: { outputs: ReadonlyArray<{ additionalContext?: string }> }): string {
  return result.outputs[0]?.additionalContext ?? '';
}
