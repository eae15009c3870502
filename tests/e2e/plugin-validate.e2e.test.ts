/**
 * Both hosts' own validators accept the plugin as it is checked in (D31):
 * - `claude plugin validate <repo> --strict --json` on each pinned Claude
 *   Code version exits 0 with no error and no warning: the marketplace
 *   manifest, `.claude-plugin/plugin.json`, the hooks files (hooks.json and
 *   the module's, whose source the validator reads: every `$.state` key the
 *   module reads or writes must be declared in the manifest's types contract,
 *   .claude-plugin/module-types.d.ts, FC24), the skills and commands; and the plugin
 *   directory's checks (an icon at .claude-plugin/icon.png) report nothing.
 *   The module is found where the manifest names it, and only there.
 * - CodeBuddy 2.117 (its headless bundle: `cli/bin/codebuddy` cannot run
 *   `plugin …` from node_modules, F22) validates what it can: the plugin
 *   manifest (.codebuddy-plugin/plugin.json) and the marketplace manifest it
 *   finds for the folder; both valid, no warning.
 * Each run gets a throwaway HOME (the CLIs write their config there).
 *
 * @module
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaudeSandbox, runClaudePluginCommand, type ClaudeSandbox } from './support/claude-cli.js';
import { forEachClaudeVersion, requireClaudeCli } from './support/claude-world.js';
import { runPluginCommand } from './support/cli.js';
import { REPO_ROOT } from './support/repo.js';
import { createCliSandbox } from './support/sandbox.js';

/** No model is asked: a port nothing listens on. */
const NO_MODEL = 'http://127.0.0.1:9';

interface ClaudeReportFile {
  file: string;
  type: string;
  errors: unknown[];
  warnings: unknown[];
  notes?: string[];
  modules?: unknown[];
}

interface ClaudeReport {
  success: boolean;
  strict: boolean;
  manifest: ClaudeReportFile;
  contents: ClaudeReportFile[];
  /** The plugin directory's checks (the catalog's): `findings` holds what they report, ICON_MISSING among them. */
  directory: { findings: unknown[] };
}

forEachClaudeVersion((version) => {
  let sandbox: ClaudeSandbox | undefined;
  afterAll(() => sandbox?.dispose());

  it('claude plugin validate --strict: exit 0, no error, no warning; the module read from the manifest hooks file', async () => {
    requireClaudeCli(version);
    sandbox = createClaudeSandbox({ modelBaseUrl: NO_MODEL, version, label: 'validate' });
    const run = await runClaudePluginCommand(sandbox, ['validate', REPO_ROOT, '--strict', '--json']);
    expect(run.exit.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = JSON.parse(run.stdout) as ClaudeReport;
    expect(report).toMatchObject({ success: true, strict: true });
    const files = [report.manifest, ...report.contents];
    const problems = files.flatMap((file) =>
      [...file.errors, ...file.warnings].map((one) => `${file.file}: ${JSON.stringify(one)}`),
    );
    expect(problems, run.stdout).toEqual([]);
    expect(report.directory.findings, 'the plugin directory checks').toEqual([]);
    // The state the module keeps, declared by the types contract; the module only in the manifest's hooks file.
    const manifest = files.find((file) => file.file === join(REPO_ROOT, '.claude-plugin', 'plugin.json'));
    expect(manifest?.notes?.join('\n')).toContain(
      'declares state: openviking.cardTurns, openviking.cardReplies, openviking.cardExpanded',
    );
    const hooksFiles = files.filter((file) => file.type === 'hooks').map((file) => file.file);
    expect(hooksFiles).toContain(join(REPO_ROOT, '.claude-plugin', 'module-hooks.json'));
    const moduleNotes = files.filter((file) =>
      (file.notes ?? []).some((note) => note.startsWith('../hooks/register.mjs ')),
    );
    expect(moduleNotes.map((file) => file.file)).toEqual([join(REPO_ROOT, '.claude-plugin', 'module-hooks.json')]);
  });
});

describe('CodeBuddy 2.117 (headless bundle)', () => {
  const sandbox = createCliSandbox({ modelUrl: NO_MODEL, label: 'validate' });
  afterAll(() => sandbox.dispose());

  for (const [what, target, type] of [
    ['the plugin manifest', join(REPO_ROOT, '.codebuddy-plugin', 'plugin.json'), 'plugin'],
    ['the folder (its marketplace manifest)', REPO_ROOT, 'marketplace'],
  ] as const) {
    it(`codebuddy plugin validate ${what}: valid, no warning`, async () => {
      const run = await runPluginCommand(sandbox, ['validate', target]);
      expect(run.exit.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('✔ Validation passed');
      expect(run.stdout).not.toMatch(/⚠|warning/i);
      const verdict = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as Record<string, unknown>;
      expect(verdict).toMatchObject({ valid: true, type });
    });
  }
});
