/**
 * Claude Code scenario 4 — installing the plugin the way Claude Code users
 * will: the repository is its own marketplace for Claude Code too
 * (`.claude-plugin/marketplace.json`, plugin `source: "./"`). A copy of the
 * shipped files stands in for a clone; `claude plugin marketplace add <dir>`
 * and `claude plugin install openviking@<marketplace>` must succeed, and a run
 * with no plugin flag must fire the hooks (and start the MCP server) from the
 * marketplace directory itself: Claude Code records a copy under
 * `~/.claude/plugins/cache/<marketplace>/<plugin>/<version>` but loads a
 * directory marketplace's plugin in place, as CodeBuddy does (so `git pull`
 * updates it). The hooks module loads from there too.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepAsidePrefix } from '../../src/protocol/handoff.js';
import { systemEntriesText } from './support/anthropic-model.js';
import { runClaude, runClaudePluginCommand } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import { createClaudeWorld, forEachClaudeVersion, type ClaudeWorld } from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { copyShippedPlugin } from './support/marketplace.js';
import { SEED } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';

interface MarketplaceManifest {
  name: string;
  plugins: Array<{ name: string; source: string; version?: string }>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const manifest = readJson<MarketplaceManifest>(join(REPO_ROOT, '.claude-plugin', 'marketplace.json'));
const plugin = readJson<{ name: string; version: string }>(join(REPO_ROOT, '.claude-plugin', 'plugin.json'));

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let clone: string;
  let add: CliRun;
  let install: CliRun;
  let run: CliRun;
  let uninstall: CliRun;
  let remove: CliRun;
  /** settings.json as the install left it (the uninstall at the end of beforeAll rewrites it). */
  let installedSettings: { enabledPlugins?: Record<string, boolean> };

  beforeAll(async () => {
    world = await createClaudeWorld(version, 'marketplace', () => ({ text: 'E2E-CC-FOUR-ANSWER ok' }));
    clone = join(world.sandbox.root, 'openviking-codebuddy');
    copyShippedPlugin(REPO_ROOT, clone);
    add = await runClaudePluginCommand(world.sandbox, ['marketplace', 'add', clone]);
    install = await runClaudePluginCommand(world.sandbox, ['install', `${plugin.name}@${manifest.name}`]);
    installedSettings = readJson(join(world.sandbox.configDir, 'settings.json'));
    run = await runClaude(world.sandbox, 'E2E-CC-FOUR hello from an installed plugin', {
      pluginDirs: [],
      env: world.pluginEnv,
    });
    // The README's Uninstall, with `claude` in place of `codebuddy`.
    uninstall = await runClaudePluginCommand(world.sandbox, ['uninstall', `${plugin.name}@${manifest.name}`]);
    remove = await runClaudePluginCommand(world.sandbox, ['marketplace', 'remove', manifest.name]);
  });

  afterAll(async () => {
    await world?.dispose();
  });

  describe('Claude Code scenario 4: the repository as a local marketplace', () => {
    it("the README's uninstall removes the plugin and the marketplace", () => {
      expect(uninstall.exit.code, uninstall.stdout + uninstall.stderr).toBe(0);
      expect(remove.exit.code, remove.stdout + remove.stderr).toBe(0);
      const settings = readJson<{ enabledPlugins?: Record<string, boolean> }>(
        join(world.sandbox.configDir, 'settings.json'),
      );
      expect(settings.enabledPlugins?.[`${plugin.name}@${manifest.name}`]).not.toBe(true);
    });

    it('ships a Claude Code marketplace manifest listing this plugin at the repository root, like the CodeBuddy one', () => {
      expect(manifest.plugins).toEqual([
        expect.objectContaining({ name: plugin.name, source: './', version: plugin.version }),
      ]);
      const codebuddy = readJson<MarketplaceManifest>(join(REPO_ROOT, '.codebuddy-plugin', 'marketplace.json'));
      expect(manifest.name).toBe(codebuddy.name);
      expect(manifest.plugins).toEqual(codebuddy.plugins);
    });

    it('the CLI adds the marketplace and installs the plugin', () => {
      expect(add.exit.code, add.stdout + add.stderr).toBe(0);
      expect(add.stdout).toContain(`Successfully added marketplace: ${manifest.name}`);
      expect(install.exit.code, install.stdout + install.stderr).toBe(0);
      expect(install.stdout).toContain(`Successfully installed plugin: ${plugin.name}@${manifest.name}`);
      expect(installedSettings.enabledPlugins?.[`${plugin.name}@${manifest.name}`]).toBe(true);
    });

    it('a run with no plugin flag fires the hooks and starts the MCP server from the marketplace directory, in place', () => {
      expectNormalExit(run);
      const log = world.sandbox.debugLogs();
      expect(log, world.evidence()).toContain(
        `Hooks: UserPromptSubmit [${stepAsidePrefix('prompt')}sh "${clone}/hooks/relay.sh"] (plugin ${plugin.name}@${manifest.name}) finished with status 0`,
      );
      expect(log).toContain(`hooks module ${plugin.name}@${manifest.name} loaded`);
      expect(log).toMatch(/MCP server "plugin:openviking:openviking": Successfully connected/);
      const context = systemEntriesText(world.model.calls('conversation')[0]);
      expect(context, world.evidence()).toContain(SEED.profileMarker);
      expect(context).toContain('mcp__plugin_openviking_openviking__read');
    });
  });
});
