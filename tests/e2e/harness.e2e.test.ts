/**
 * Proves the e2e harness against the real CLI with a probe plugin (hooks that
 * log their stdin), so a failing plugin scenario can be blamed on the plugin,
 * not on the harness: text mode, stream-json turn pacing with a sub-agent,
 * CODEBUDDY_PLUGIN_DIRS, a local marketplace install, and full teardown.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery, lastUserText, toolResults } from './support/chat-types.js';
import { runPluginCommand, runPrompt, startStreamSession } from './support/cli.js';
import { startFakeModel, type FakeModel } from './support/fake-model.js';
import { writeMarketplaceManifest } from './support/marketplace.js';
import { PROBE_MARKERS, readProbeLog, writeProbePlugin } from './support/probe-plugin.js';
import { createCliSandbox, type CliSandbox } from './support/sandbox.js';
import { afterToolResult, callTool, firstMatching, forPurpose, onPrompt } from './support/script.js';

let model: FakeModel;
const sandboxes: CliSandbox[] = [];

function sandbox(label: string): { box: CliSandbox; plugin: string; log: string } {
  const box = createCliSandbox({ modelUrl: model.chatUrl, label });
  sandboxes.push(box);
  const plugin = writeProbePlugin(join(box.root, 'probe-plugin'));
  return { box, plugin, log: join(box.root, 'probe.jsonl') };
}

beforeAll(async () => {
  model = await startFakeModel({
    script: firstMatching([
      onPrompt('HARNESS-READ', callTool('Read', { file_path: 'viking://user/default/memories/x.md' })),
      onPrompt(
        'HARNESS-AGENT',
        callTool('Agent', {
          description: 'probe sub-agent',
          prompt: 'SUB-HELLO say hi',
          subagent_type: 'general-purpose',
        }),
      ),
      forPurpose('subagent', { text: 'subagent done' }),
      afterToolResult({ text: 'done' }),
    ]),
  });
});

afterAll(async () => {
  for (const box of sandboxes) box.dispose();
  await model.close();
});

describe('e2e harness with a probe plugin', () => {
  it('-p with --plugin-dir: hook contexts reach the model, a deny comes back as the tool error', async () => {
    const { box, plugin, log } = sandbox('probe-text');
    const before = model.calls().length;
    const run = await runPrompt(box, 'HARNESS-READ please', {
      plugin: { kind: 'plugin-dir', dir: plugin },
      env: { PROBE_LOG: log },
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exit.code).toBe(0);
    expect(run.stdout).toContain('done');

    const calls = model.calls().slice(before);
    expect(calls.length).toBe(2);
    const first = calls[0]!;
    expect(first.headers['x-agent-purpose']).toBe('conversation');
    // Awaited: the prompt's context is in the request. SessionStart's hooks run in the background in `-p` (F48):
    // its context is there when its hook answered in time, which no host promise makes a fact.
    expect(lastUserText(first)).toContain(PROBE_MARKERS.context('UserPromptSubmit'));
    expect(toolResults(calls[1]!)[0]?.text).toContain(PROBE_MARKERS.deny);

    const events = readProbeLog(log).map((record) => record.event);
    expect(events).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop']));
    expect(readProbeLog(log).every((record) => record.pluginRoot === plugin)).toBe(true);
    expect(box.cliLogs()).not.toBe('');
    expect(box.livePids()).toEqual([]);
  });

  it('stream-json: turns are paced by result lines, one session, the sub-agent call is tagged', async () => {
    const { box, plugin, log } = sandbox('probe-stream');
    const before = model.calls().length;
    const session = startStreamSession(box, { plugin: { kind: 'env-dirs', dirs: [plugin] }, env: { PROBE_LOG: log } });
    const results = [];
    for (const prompt of ['turn one', 'HARNESS-AGENT turn two', 'turn three']) results.push(await session.send(prompt));
    const run = await session.close();
    expect(run.exit.code).toBe(0);

    expect(results.map((result) => result.subtype)).toEqual(['success', 'success', 'success']);
    expect(new Set(results.map((result) => result.session_id)).size).toBe(1);
    const calls = model.calls().slice(before);
    expect(calls.filter((call) => call.purpose === 'subagent')).toHaveLength(1);
    const prompts = readProbeLog(log)
      .filter((record) => record.event === 'UserPromptSubmit')
      .map((record) => record.stdin.prompt);
    expect(prompts).toEqual(['turn one', 'HARNESS-AGENT turn two', 'turn three']);
    expect(readProbeLog(log).some((record) => record.event === 'SubagentStop')).toBe(true);
  });

  it('env-key model config (no models.json): the prompt arrives as text parts and is understood', async () => {
    const box = createCliSandbox({ modelUrl: model.chatUrl, label: 'probe-env-model', modelConfig: 'env' });
    sandboxes.push(box);
    const before = model.calls().length;
    const run = await runPrompt(box, 'HARNESS-READ as parts', { plugin: { kind: 'none' } });
    expect(run.exit.code, run.stderr).toBe(0);
    const first = model.calls().slice(before)[0];
    expect(Array.isArray(first?.messages.at(-1)?.content)).toBe(true);
    expect(lastUserQuery(first!)).toBe('HARNESS-READ as parts');
    // No plugin, so no guard: the host's own Read fails on the viking:// path.
    expect(toolResults(model.calls().slice(before)[1]!)[0]?.text).toContain('File does not exist');
  });

  it('local marketplace: added and installed with the CLI, hooks fire from the marketplace copy', async () => {
    const { box, log } = sandbox('probe-mkt');
    const mkt = join(box.root, 'mkt');
    mkdirSync(mkt);
    const installed = writeProbePlugin(join(mkt, 'plugins', 'probe'));
    writeMarketplaceManifest(mkt, 'probe-mkt', [{ name: 'probe', source: './plugins/probe', description: 'probe' }]);

    const add = await runPluginCommand(box, ['marketplace', 'add', mkt]);
    expect(add.exit.code, add.stdout + add.stderr).toBe(0);
    const install = await runPluginCommand(box, ['install', 'probe@probe-mkt']);
    expect(install.exit.code, install.stdout + install.stderr).toBe(0);

    const run = await runPrompt(box, 'plain prompt', { plugin: { kind: 'installed' }, env: { PROBE_LOG: log } });
    expect(run.exit.code).toBe(0);
    const records = readProbeLog(log);
    expect(records.some((record) => record.event === 'UserPromptSubmit')).toBe(true);
    expect(new Set(records.map((record) => record.pluginRoot))).toEqual(new Set([installed]));
  });
});
