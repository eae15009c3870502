/**
 * Scenario 4 — installing the plugin the way users will: the repository is its
 * own marketplace (`.codebuddy-plugin/marketplace.json`, plugin `source: "./"`).
 * A copy of the shipped files stands in for a clone; it is added with
 * `codebuddy plugin marketplace add <dir>`, the plugin installed with
 * `codebuddy plugin install openviking@<marketplace>`, and a run with no plugin
 * flag must fire the hooks from that installed copy.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNormalExit } from './support/expect-run.js';
import { runPluginCommand, runPrompt, type CliRun } from './support/cli.js';
import { copyShippedPlugin } from './support/marketplace.js';
import { SEED } from './support/openviking.js';
import { blocksInPrompt } from './support/observe.js';
import { REPO_ROOT } from './support/repo.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

interface MarketplaceManifest {
  name: string;
  plugins: Array<{ name: string; source: string }>;
}

const manifest = JSON.parse(
  readFileSync(join(REPO_ROOT, '.codebuddy-plugin', 'marketplace.json'), 'utf8'),
) as MarketplaceManifest;
const pluginName = (
  JSON.parse(readFileSync(join(REPO_ROOT, '.codebuddy-plugin', 'plugin.json'), 'utf8')) as { name: string }
).name;

let world: E2eWorld;
let clone: string;
let add: CliRun;
let install: CliRun;
let run: CliRun;
let uninstall: CliRun;
let remove: CliRun;
/** settings.json as the install left it (the uninstall at the end of beforeAll rewrites it). */
let installedSettings: string;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld('marketplace', () => ({ text: 'E2E-FOUR-ANSWER ok' }));
  clone = join(world.sandbox.root, 'openviking-codebuddy');
  copyShippedPlugin(REPO_ROOT, clone);
  add = await runPluginCommand(world.sandbox, ['marketplace', 'add', clone]);
  install = await runPluginCommand(world.sandbox, ['install', `${pluginName}@${manifest.name}`]);
  installedSettings = readFileSync(join(world.sandbox.configDir, 'settings.json'), 'utf8');
  run = await runPrompt(world.sandbox, 'E2E-FOUR hello from an installed plugin', {
    plugin: { kind: 'installed' },
    env: world.pluginEnv,
  });
  // The README's Uninstall, as written there.
  uninstall = await runPluginCommand(world.sandbox, ['uninstall', `${pluginName}@${manifest.name}`]);
  remove = await runPluginCommand(world.sandbox, ['marketplace', 'remove', manifest.name]);
}, 240_000);

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 4: the repository as a local marketplace', () => {
  it('ships a marketplace manifest that lists this plugin at the repository root', () => {
    expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(manifest.plugins).toEqual([expect.objectContaining({ name: pluginName, source: './' })]);
  });

  it('the CLI adds the marketplace and installs the plugin', () => {
    expect(add.exit.code, add.stdout + add.stderr).toBe(0);
    expect(add.stdout).toContain(`Marketplace '${manifest.name}' added successfully`);
    expect(install.exit.code, install.stdout + install.stderr).toBe(0);
    expect(install.stdout).toContain(`Successfully installed plugin: ${pluginName}@${manifest.name}`);
    const settings = JSON.parse(installedSettings) as { enabledPlugins?: Record<string, boolean> };
    expect(settings.enabledPlugins?.[`${pluginName}@${manifest.name}`]).toBe(true);
  });

  it("the README's uninstall removes the plugin and the marketplace", () => {
    expect(uninstall.exit.code, uninstall.stdout + uninstall.stderr).toBe(0);
    expect(remove.exit.code, remove.stdout + remove.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(world.sandbox.configDir, 'settings.json'), 'utf8')) as {
      enabledPlugins?: Record<string, boolean>;
    };
    expect(settings.enabledPlugins?.[`${pluginName}@${manifest.name}`]).not.toBe(true);
    const known = readFileSync(join(world.sandbox.configDir, 'plugins', 'known_marketplaces.json'), 'utf8');
    expect(known).not.toContain(`"${manifest.name}"`);
  });

  it('a run with no plugin flag fires the hooks from the installed copy', () => {
    expectNormalExit(run);
    // The CLI logs a command cut at ~200 characters: the prompt's and the start's, behind the hooks module's
    // hand-off test, end before their script; the write path's (`sh …/hooks/detach.sh`) is whole.
    const hookCommands =
      world.sandbox.cliLogs().match(/cmd=[^\n]*"[^"\n]*\/(scripts\/hook\.cjs|hooks\/detach\.sh)"/g) ?? [];
    expect(hookCommands.length, 'hook commands in the CLI log').toBeGreaterThan(0);
    // The CLI rewrites the text ${CLAUDE_PLUGIN_ROOT} (DESIGN.md D10, D23), so the logged command
    // carries the installed copy's root.
    for (const command of hookCommands)
      expect(command.replaceAll('//', '/')).toMatch(
        new RegExp(`"${escapeRegExp(clone.replace(/\/$/, ''))}/(scripts/hook\\.cjs|hooks/detach\\.sh)"`),
      );
    expect(blocksInPrompt(world.model.calls('conversation')[0]).join('\n'), world.evidence()).toContain(
      SEED.profileMarker,
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
