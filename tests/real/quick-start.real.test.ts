/**
 * The README's quick start and its "Try it" command, run as written against
 * the real OpenViking server (issue 37 item 4), as tests/ov-server/cli.test.ts
 * runs them against the stand-in: each shell command the user copies, read
 * from README.md and run with `sh -c` in a private HOME where
 * `~/openviking-codebuddy` is this checkout, each step's check asserted.
 *
 * The server of step 1 is the suite's dev-mode server (its `openviking-server`,
 * the pinned PyPI wheel with the keys of the fake model provider,
 * tests/support/real-server), on its own port rather than 1933: the commands
 * get that address in place of `http://127.0.0.1:1933` and as `OPENVIKING_URL`.
 * The README's `ov.conf` example is checked against the configuration that
 * server runs with; step 2's `ovcli.conf` for a keyed server is written as
 * the README shows it, with a user key of the suite's api_key-mode server.
 * What cannot run here as written is said in docs/readme-commands.md.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeCommands, readmeSection } from '../support/readme.js';
import { command, firstPrompt, hasCurl, sh, userHome } from '../support/readme-run.js';
import { serverConfig } from '../support/real-server/config.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { newTenant, writeFile, type ContractTarget } from '../contract/target.js';
import { sharedServers } from './support/servers.js';

const { dev, keyed } = sharedServers();
const quickStart = readmeCommands(readmeSection('Quick start'));
const tryIt = readmeCommands(readmeSection('Try it without Python or model keys'));
const DOCTOR = 'node ~/openviking-codebuddy/scripts/hook.mjs doctor';

/** The verdicts step 2 names (`Check: doctor says `[PASS] …` and `[PASS] …`.`). */
function namedVerdicts(): string[] {
  const named = /Check: doctor says `([^`]+)` and `([^`]+)`\./.exec(readmeSection('Quick start'));
  expect(named, 'the README names the verdicts of step 2').not.toBeNull();
  return [named?.[1] ?? '', named?.[2] ?? ''];
}

const verdictsOf = (report: string): string[] => report.split('\n').filter((line) => line.startsWith('['));

/** The keys of a JSON object, nested ones as `a.b` (values aside). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix === '' ? key : `${prefix}.${key}`));
}

const DEMO_USER = 'demo';
const DEMO_EDITOR = `viking://user/${DEMO_USER}/memories/preferences/${DEMO_USER}/editor.md`;

/**
 * The demo user's editor preference at the stand-in's URI, worded as a user
 * states it: the fake provider's embedding matches words, so the README's
 * query finds a memory that shares them (a real model would find the
 * stand-in's wording too).
 */
async function seedDemo(): Promise<void> {
  const target: ContractTarget = { kind: 'real', mode: 'dev', url: dev.url };
  const demo = { account: 'default', user: DEMO_USER, headers: { 'X-OpenViking-User': DEMO_USER } };
  await writeFile(target, demo, DEMO_EDITOR, 'I use Neovim as my editor.');
}

describe("the README's quick start, against the real server", () => {
  it("step 1's ov.conf example has the keys the real server runs with", () => {
    const example = /```json\n(\{\n {2}"embedding"[\s\S]*?)```/.exec(readmeSection('Quick start'))?.[1];
    expect(example, 'the ov.conf example of step 1').toBeDefined();
    const running = serverConfig({
      port: 1933,
      workspace: '/w',
      embedding: { apiBase: 'http://127.0.0.1:1/v1', model: 'm', dimension: 8 },
      vlmApiBase: 'http://127.0.0.1:1/v1',
    });
    expect(keyPaths(running)).toEqual(expect.arrayContaining(keyPaths(JSON.parse(example as string))));
  });

  it("each step's check: /health, doctor's verdicts, the demo user's recall, the status line after a first prompt", async () => {
    const home = userHome();
    await seedDemo();

    // 1. "it answers {"status":"ok", …}", in dev mode with no key
    expect(readmeSection('Quick start')).toContain('Check: it answers `{"status":"ok", …}`');
    if (hasCurl) {
      const health = JSON.parse(await sh(command(quickStart, 'curl -s'), dev.url, home));
      expect(health).toEqual({ status: 'ok', healthy: true, version: dev.version, auth_mode: 'dev' });
    }

    // 2. The plugin and where its server is: a local dev-mode server needs no configuration.
    expect(verdictsOf(await sh(command(quickStart, DOCTOR), dev.url, home))).toEqual(
      expect.arrayContaining(namedVerdicts()),
    );

    // Try it: the demo memories are user demo's; they show with OPENVIKING_USER=demo, and not without.
    const preview = command(tryIt, 'OPENVIKING_USER=demo ');
    expect(await sh(preview, dev.url, home, REPO_ROOT)).toContain(DEMO_EDITOR);
    expect(await sh(preview.replace('OPENVIKING_USER=demo ', ''), dev.url, home, REPO_ROOT)).not.toContain('editor.md');

    // 4. A first session: after a prompt, the status line says the server is up and recall ran.
    await firstPrompt(home, dev.url, DEMO_USER, 'which editor do I use');
    const statusLine = await sh(
      command(quickStart, 'node ~/openviking-codebuddy/scripts/statusline.mjs'),
      dev.url,
      home,
    );
    expect(statusLine).toMatch(/^OV ● up · recall \d+ memor(y|ies) (now|\d+s ago)/);
  }, 120_000);

  it('step 2 for a server that wants a key: ovcli.conf as the README writes it, with a user key', async () => {
    const example = /```json\n(\{ "url": [^\n]*\})\n```/.exec(readmeSection('Quick start'))?.[1];
    expect(example, "step 2's ovcli.conf example").toBeDefined();
    const shown = JSON.parse(example as string) as Record<string, string>;
    expect(Object.keys(shown)).toEqual(['url', 'api_key']);
    const tenant = await newTenant(
      { kind: 'real', mode: 'api_key', url: keyed.url, ...(keyed.rootKey ? { rootKey: keyed.rootKey } : {}) },
      'readme',
    );
    const home = userHome();
    mkdirSync(join(home, '.openviking'), { mode: 0o700 });
    writeFileSync(
      join(home, '.openviking', 'ovcli.conf'),
      JSON.stringify({ ...shown, url: keyed.url, api_key: tenant.key }),
      { mode: 0o600 },
    );
    // The address comes from the file here: no OPENVIKING_URL.
    const report = await sh(command(quickStart, DOCTOR), '', home);
    expect(verdictsOf(report)).toEqual(expect.arrayContaining(namedVerdicts()));
    expect(report).toContain(`user: ${tenant.user}`);
  }, 120_000);
});
