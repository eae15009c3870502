/**
 * Scenario 9 — projects (issue 17.1, DESIGN D24) through the real CLI: two
 * workspaces, git repositories with different remotes (ssh and https with
 * a token), share one OpenViking server holding a memory of each project
 * under its peer. A session in each workspace gets its own project's
 * memory in the first model request and never the other's, and the turn it
 * captures carries its project's `peer_id` (no credential of the remote in
 * anything the server saw).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { mainSessionOf } from './support/openviking.js';
import { blocksInPrompt, hostSessionIdOf } from './support/observe.js';
import { createCliSandbox, type CliSandbox } from './support/sandbox.js';
import { firstMatching, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';
import { settledCounts } from './support/capture-counts.js';

const REMOTES = {
  alpha: 'git@github.com:acme/alpha-service.git',
  beta: 'https://deploy:ghp_E2ETOKENSECRET000111@github.com/acme/beta-service',
} as const;
const MARKERS = { alpha: 'PROJECT-ALPHA-MARKER-TERRAFORM', beta: 'PROJECT-BETA-MARKER-PULUMI' } as const;
const peerOf = (remote: string) => gitRemoteVariable(remote);
const prompt = (tag: string) => `How is the kestrel service released to production? (${tag})`;

/** `OV_E2E_PLUGIN_ROOT` runs another built copy of the plugin (used to see this scenario fail on a build without project identity). */
const pluginSource = () =>
  process.env.OV_E2E_PLUGIN_ROOT
    ? { kind: 'plugin-dir' as const, dir: process.env.OV_E2E_PLUGIN_ROOT }
    : world.repoPlugin;

let world: E2eWorld;
let betaSandbox: CliSandbox;
const runs: Partial<Record<'alpha' | 'beta', CliRun>> = {};

function gitRepo(dir: string, remote: string): void {
  execFileSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: dir, stdio: 'ignore' });
}

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld('projects', firstMatching([onPrompt('E2E-PROJ', { text: 'E2E-PROJ-ANSWER noted' })]));
  betaSandbox = createCliSandbox({ modelUrl: world.model.chatUrl, label: 'projects-beta' });
  gitRepo(world.sandbox.workspace, REMOTES.alpha);
  gitRepo(betaSandbox.workspace, REMOTES.beta);
  world.ov.seed({
    files: {
      [`peers/${peerOf(REMOTES.alpha)}/memories/events/release.md`]: `The kestrel service is released to production with terraform apply (${MARKERS.alpha}).`,
      [`peers/${peerOf(REMOTES.beta)}/memories/events/release.md`]: `The kestrel service is released to production with pulumi up (${MARKERS.beta}).`,
    },
  });
  runs.alpha = await runPrompt(world.sandbox, prompt('E2E-PROJ-ONE'), { plugin: pluginSource(), env: world.pluginEnv });
  runs.beta = await runPrompt(betaSandbox, prompt('E2E-PROJ-TWO'), { plugin: pluginSource(), env: world.pluginEnv });
}, 180_000);

afterAll(async () => {
  betaSandbox?.dispose();
  await world?.dispose();
});

/** The conversation call of the run tagged `tag`. */
const callOf = (tag: string) =>
  world.model.calls('conversation').find((call) => JSON.stringify(call.messages).includes(tag));

describe('scenario 9: two projects, one server', () => {
  it('both CLI runs finish normally', () => {
    expectNormalExit(runs.alpha as CliRun);
    expectNormalExit(runs.beta as CliRun);
  });

  it("each workspace recalls its own project memory and not the other's", () => {
    const alpha = blocksInPrompt(callOf('E2E-PROJ-ONE')).join('\n');
    const beta = blocksInPrompt(callOf('E2E-PROJ-TWO')).join('\n');
    expect(alpha, world.evidence()).toContain(MARKERS.alpha);
    expect(alpha).not.toContain(MARKERS.beta);
    expect(beta, world.evidence()).toContain(MARKERS.beta);
    expect(beta).not.toContain(MARKERS.alpha);
  });

  it("each captured turn carries its project's peer_id; the remote's token reached nothing", async () => {
    for (const [name, tag] of [
      ['alpha', 'E2E-PROJ-ONE'],
      ['beta', 'E2E-PROJ-TWO'],
    ] as const) {
      const sessionId = hostSessionIdOf(callOf(tag));
      expect(sessionId).not.toBe('');
      await settledCounts({ stored: () => mainSessionOf(world.ov, sessionId)?.allMessages.length ?? 0 });
      const peers = new Set(mainSessionOf(world.ov, sessionId)?.allMessages.map((message) => message.peer_id));
      expect(peers, world.evidence()).toEqual(new Set([peerOf(REMOTES[name])]));
    }
    expect(JSON.stringify(world.ov.requests())).not.toContain('E2ETOKENSECRET');
  });
});
