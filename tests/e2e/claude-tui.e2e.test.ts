/**
 * Claude Code scenario 6 — the interactive TUI under tmux (support/claude-tui.ts),
 * on each pinned version: what only a person's session shows.
 * 1. A prompt that recalls a memory, answered after one lookup through the
 *    plugin's MCP read tool: the hooks module recalls (one search; our
 *    UserPromptSubmit command steps aside) and feeds the memory card, drawn
 *    under the answer (one summary line); `/openviking-card expand` opens it (the memory with its
 *    score, the lookup). `/compact` runs PreCompact (capture and commit,
 *    synchronously) and the compaction; `/exit` runs SessionEnd.
 * 2. `claude --continue`: the same answer with its card, open as left, with
 *    no model request (restored from the store); `/exit` runs SessionEnd again.
 * The turn lands in OpenViking once, and every message is committed exactly once.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepAsidePrefix } from '../../src/protocol/handoff.js';
import { detachedRuns } from '../support/detached.js';
import { waitFor } from '../support/wait.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { prepareTuiHome, startTui, stopTuis } from './support/claude-tui.js';
import { countMessages, mainSessionOf, messageText, SEED } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { afterToolResultOf, callTool, firstMatching, onPrompt } from './support/script.js';

const MCP_READ = 'mcp__plugin_openviking_openviking__read';
const PROMPT = `${SEED.recallPrompt} E2E-TUI`;
const ANSWER = 'E2E-TUI-ANSWER use helm upgrade';
const CARD_LINE = /OpenViking · (\d+) recalled · 1 looked up/;

/** A `/exit` as the capture stores it (the host writes it as a `<command-name>` user line). */
const isExitLine = (text: string): boolean => text.trim() === '/exit';

/** How many `/exit` lines the host wrote into these transcripts. */
function exitLinesIn(transcripts: readonly string[]): number {
  return transcripts
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .filter((line) => line.includes('<command-name>/exit</command-name>')).length;
}

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  const screens: Record<string, string> = {};
  const logs: Record<string, string> = {};
  let commitsAfterFirst = -1;

  const mainSession = () => mainSessionOf(world.ov, claudeSessionIdOf(world.model.calls('conversation')[0]));
  /** Commits of the session's OpenViking session so far. */
  const commits = () =>
    world.ov
      .requests()
      .filter(
        (request) =>
          request.method === 'POST' && request.path.endsWith(`/sessions/${mainSession()?.sessionId ?? 'none'}/commit`),
      ).length;
  /** Every archived message's text, in commit order. */
  const archivedTexts = () => (mainSession()?.archives ?? []).flatMap((archive) => archive.messages.map(messageText));
  /**
   * What the host guarantees is that each SessionEnd hook ran before the CLI exited (logged above), not when
   * the capture it hands to a detached process commits (FC27). So, after each session, wait (under a
   * deadline) until that process is gone, then until the commits hold still.
   */
  const settledWrites = async () => {
    await waitFor(() => detachedRuns(world.sandbox.home).length === 0, {
      timeoutMs: 60_000,
      what: 'the detached captures of the session to finish',
    });
    return (await settledCounts({ commits }, 20_000)).commits ?? -1;
  };

  beforeAll(async () => {
    world = await createClaudeWorld(
      version,
      'tui',
      firstMatching([
        onPrompt('E2E-TUI', callTool(MCP_READ, { uris: SEED.recallUri })),
        afterToolResultOf(MCP_READ, { text: ANSWER }),
      ]),
    );
    prepareTuiHome(world.sandbox);
    const options = (log: string, args: string[] = []) => ({
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
      allowedTools: [MCP_READ],
      debugFile: join(world.sandbox.root, log),
      args,
    });

    const first = startTui(world.sandbox, 'first', options('debug-first.txt'));
    await first.waitForScreen(/❯/, 'the composer');
    first.submit(PROMPT);
    screens.answered = await first.waitForScreen(
      new RegExp(`${ANSWER}[\\s\\S]*${CARD_LINE.source}`),
      'the answer and its card',
      60_000,
    );
    first.submit('/openviking-card expand');
    await first.waitForScreen(/★ viking:\/\/\S*kestrel-deploy\.md \d\.\d\d/, 'the expanded card');
    screens.expanded = await first.waitForScreen(/OpenViking cards expanded\./, "the command's answer");
    first.submit('/compact');
    screens.compacted = await first.waitForScreen(/Compacted/, 'the compaction', 90_000);
    first.submit('/exit');
    await first.waitForExit();
    logs.first = readFileSync(join(world.sandbox.root, 'debug-first.txt'), 'utf8');
    commitsAfterFirst = await settledWrites();

    const second = startTui(world.sandbox, 'second', options('debug-second.txt', ['--continue']));
    await second.waitForScreen(/❯/, 'the composer');
    screens.continued = await second
      .waitForScreen(
        new RegExp(`${ANSWER}[\\s\\S]*${CARD_LINE.source}[\\s\\S]*★ viking://`),
        'the restored answer with its open card',
        30_000,
      )
      .catch(() => second.screen());
    second.submit('/exit');
    await second.waitForExit();
    logs.second = readFileSync(join(world.sandbox.root, 'debug-second.txt'), 'utf8');
    await settledWrites();
  }, 300_000);

  afterAll(async () => {
    if (world) stopTuis(world.sandbox);
    await world?.dispose();
  });

  describe('the memory card', () => {
    it('is drawn under the answer: one summary line with the memories recalled for the turn and the lookup', () => {
      expect(screens.answered).toMatch(CARD_LINE);
      expect(Number(CARD_LINE.exec(screens.answered ?? '')?.[1])).toBeGreaterThanOrEqual(1);
      expect(screens.answered).not.toContain('★');
    });

    it('/openviking-card expand opens it: the recalled memory with its score, the lookup', () => {
      expect(screens.expanded).toContain('OpenViking cards expanded.');
      expect(screens.expanded).toMatch(/⌕ read “viking:\/\/\S*kestrel-deploy\.md” \d+ URIs/);
    });

    it("is fed by the module's own recall (loaded from the manifest's hooks file): one search for the prompt, our UserPromptSubmit command stepped aside in its sh", () => {
      expect(logs.first).toContain(
        'Read manifest hooks for plugin openviking (enabled=true): ./.claude-plugin/module-hooks.json',
      );
      expect(logs.first).toMatch(/hooks module openviking@inline classic\.UserPromptSubmit settled in [\d.]+ms/);
      const stepAside = stepAsidePrefix('prompt').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(logs.first).toMatch(
        new RegExp(
          `Hooks: UserPromptSubmit \\[${stepAside}[^\\n]*\\(plugin openviking@inline\\) finished with status 0`,
        ),
      );
      expect(
        world.ov.requests().filter((request) => request.method === 'POST' && request.path === '/api/v1/search/search'),
      ).toHaveLength(1);
    });

    it('--continue draws the same card, open as it was left, before any new prompt', () => {
      expect(screens.continued).toMatch(/★ viking:\/\/\S*kestrel-deploy\.md \d\.\d\d/);
      expect(logs.second).not.toContain('[API REQUEST] /v1/messages');
    });
  });

  describe("the events only a person's session fires", () => {
    it('/exit runs SessionEnd through the shell path, both times', () => {
      // The TUI logs a plugin hook with its command as written.
      const ended =
        /SessionEnd:prompt_input_exit \[sh "\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/detach\.sh"\] completed with status 0/;
      expect(logs.first).toMatch(ended);
      expect(logs.second).toMatch(ended);
    });

    it('/compact runs PreCompact (the synchronous capture) before the compaction', () => {
      expect(logs.first).toMatch(
        /PreCompact:manual \[node "\$\{CLAUDE_PLUGIN_ROOT\}\/scripts\/hook\.cjs"\] completed with status 0[\s\S]*\[API REQUEST\] \/v1\/messages source=compact/,
      );
      expect(screens.compacted).toContain('Compacted');
    });

    it('the turn lands once and is committed exactly once (by PreCompact); /exit commits only what came after it, --continue only the first /exit line', async () => {
      const probes = {
        prompt: () => countMessages(mainSession(), 'user', 'E2E-TUI'),
        answer: () => countMessages(mainSession(), 'assistant', ANSWER),
      };
      expect(await settledCounts(probes, 20_000), world.evidence()).toEqual(onceEach(probes));
      const archived = archivedTexts();
      // Every message in exactly one archive: the turn in PreCompact's, the `/compact` line (written after PreCompact ran) in SessionEnd's.
      expect(archived.filter((text) => text.includes('E2E-TUI'))).toHaveLength(2);
      const others = archived.filter((text) => !isExitLine(text));
      expect(new Set(others).size, archived.join('\n')).toBe(others.length);
      // Each session's `/exit` is a message of its own with the same text, written to the transcript after
      // that session's SessionEnd ran (FC27): a later capture takes it (the --continue session's), the last
      // session's own has no later capture. A capture that ran late may take it too: never more than the
      // transcript holds, never fewer than all but the last.
      const exits = archived.filter(isExitLine).length;
      const written = exitLinesIn(world.sandbox.transcripts());
      const why = `${written} /exit line(s) in the transcript; archived:\n${archived.join('\n')}\n${world.evidence()}`;
      expect(exits, why).toBeGreaterThanOrEqual(written - 1);
      expect(exits, why).toBeLessThanOrEqual(written);
      expect(archived.length).toBe(mainSession()?.allMessages.length);
      // The first /exit is written to the transcript after that session's SessionEnd ran: the --continue
      // session captures it (nothing else, but perhaps its own /exit) and its own SessionEnd commits it.
      const archives = (mainSession()?.archives ?? []).map((archive) => archive.messages.map(messageText));
      const later = archives.slice(commitsAfterFirst);
      expect(later.flat().every(isExitLine), JSON.stringify(archives)).toBe(true);
      expect(later.length, JSON.stringify(archives)).toBeLessThanOrEqual(1);
      expect(commits()).toBe(archives.length);
    });
  });
});
