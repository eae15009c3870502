/**
 * Output a slash command's inline step prints holds no template tag
 * (protocol/commandOutput.ts, DESIGN F20): CodeBuddy 2.117 renders the
 * expanded command with nunjucks, so `{{ … }}` from a server, a memory or an
 * earlier prompt would run in the CLI (e2e slash-commands shows the host
 * evaluating one). Doctor's text and the controls' text go through it.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inertForCommand } from '../../src/protocol/commandOutput.js';
import { recordInjection } from '../../src/why/record.js';
import { spawnHook } from '../support/spawn-hook.js';

const home = mkdtempSync(join(tmpdir(), 'ov-cmd-out-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const TAGS = /\{\{|\{%|\{#/;

describe('inertForCommand', () => {
  it.each(['{{ 7*7 }}', '{% if x %}y{% endif %}', '{# c #}', '{{{x}}}', 'a{{b}}c{%d%}'])(
    '%s keeps its characters and opens no tag',
    (text) => {
      const inert = inertForCommand(text);
      expect(inert).not.toMatch(TAGS);
      expect(inert.replaceAll('\u200b', '')).toBe(text);
    },
  );

  it('plain text and JSON braces are untouched', () => {
    for (const text of ['no braces', '{"a": {"b": 1}}', '{ {']) expect(inertForCommand(text)).toBe(text);
  });
});

describe('through the built plugin', () => {
  const env = { PATH: process.env.PATH, HOME: home, OPENVIKING_RESIDENT: 'off' };

  it('doctor prints a server URL holding a tag as text', async () => {
    const run = await spawnHook({
      args: ['doctor'],
      cwd: home,
      env: { ...env, OPENVIKING_URL: 'http://127.0.0.1:9/a{{ 7*7 }}b' },
      timeoutMs: 20_000,
    });
    expect(run.stdout).toContain('a{\u200b{ 7*7 }}b');
    expect(run.stdout).not.toMatch(TAGS);
  }, 30_000);

  it('why prints a recorded query holding a tag as text', async () => {
    recordInjection(join(home, '.codebuddy', 'openviking'), {
      session: 'cb-tags',
      at: 1,
      kind: 'recall',
      detail: 'what is {{ range.constructor("return 1")() }}',
      items: [{ uri: 'viking://user/x/{%x%}' }],
      text: 'block',
    });
    const run = await spawnHook({ args: ['why', '--session', 'cb-tags'], cwd: home, env, timeoutMs: 20_000 });
    expect(run.stdout).toContain('recall for: what is {\u200b{ range.constructor');
    expect(run.stdout).not.toMatch(TAGS);
  }, 30_000);
});
