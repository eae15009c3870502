/**
 * Claude Code scenario C5 (issue 22 item 3, DESIGN D28, D30): a user with a
 * 40 KB profile and 120 listed preference files. Claude Code passes a shell
 * hook's `additionalContext` whole only up to 10,000 UTF-16 code units;
 * past that the model gets a `<persisted-output>` notice with a 2 KB
 * preview (on d5cc0e5 the 15.6 KB start block arrived so, unclosed, without
 * the profile's end or the listing). A hooks module's answer is not capped
 * (FC6). Through the real CLI, two sessions:
 * - the hooks module on (the default): the start block comes from the
 *   module, ONE closed block past 10,000 units, whole: the profile's first
 *   and last lines and all 120 files listed;
 * - the module off (`OPENVIKING_MODULE=off`): the hook command's block, one
 *   closed block within the cap, the profile's first and last lines and the
 *   listing's start, no persisted-output notice.
 * The recall block arrives whole in both. Runs on every pinned version
 * (2.1.328 and 2.1.332).
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOK_CONTEXT_LIMIT } from '../../src/protocol/hostTools.js';
import { BIG_PROFILE_FIRST, BIG_PROFILE_LAST, bigMemorySeed } from '../support/big-memory.js';
import { systemEntriesText } from './support/anthropic-model.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import { createClaudeWorld, forEachClaudeVersion, type ClaudeWorld } from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { SEED } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { firstMatching, onPrompt } from './support/script.js';

const PROMPT = `${SEED.recallPrompt} (E2E-CC-BIG)`;
const ANSWER = 'E2E-CC-BIG-ANSWER';

/** The text of one hook's additional context in the request's system entries (up to the next entry's label). */
function hookContext(system: string, event: string): string {
  const start = system.indexOf(`${event} hook additional context:`);
  if (start === -1) return '';
  const rest = system.slice(start);
  const next = rest.slice(1).search(/\n(?:\w+ hook additional context:|Today's date is)/);
  return next === -1 ? rest : rest.slice(0, next + 1);
}

const MODES = { module: {}, shell: { OPENVIKING_MODULE: 'off' } } as const;

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  const runs = {} as Record<keyof typeof MODES, CliRun>;

  beforeAll(async () => {
    world = await createClaudeWorld(version, 'big-profile', firstMatching([onPrompt('E2E-CC-BIG', { text: ANSWER })]));
    world.ov.seed(bigMemorySeed());
    for (const [mode, env] of Object.entries(MODES)) {
      runs[mode as keyof typeof MODES] = await runClaude(world.sandbox, `${PROMPT} ${mode}`, {
        pluginDirs: [REPO_ROOT],
        env: { ...world.pluginEnv, ...env },
      });
    }
  });

  afterAll(async () => {
    await world?.dispose();
  });

  /** The start block of `mode`'s first model request, and that request's system text. */
  function startBlock(mode: keyof typeof MODES): { block: string; start: string; system: string } {
    const call = world.model.calls('conversation').find((one) => JSON.stringify(one).includes(`E2E-CC-BIG) ${mode}`));
    const system = call === undefined ? '' : systemEntriesText(call);
    const start = hookContext(system, 'SessionStart');
    const block = start.slice(
      start.indexOf('<openviking-context'),
      start.lastIndexOf('</openviking-context>') + '</openviking-context>'.length,
    );
    return { block, start, system };
  }

  describe('Claude Code scenario C5: a 40 KB profile with 120 listed files', () => {
    it('both sessions finish normally and answer', () => {
      for (const run of Object.values(runs)) {
        expectNormalExit(run);
        expect(run.stdout, world.evidence()).toContain(ANSWER);
      }
    });

    it("through the hooks module: one closed block past the hook commands' cap, whole, all 120 files listed", () => {
      const { block, start } = startBlock('module');
      expect(start, world.evidence()).not.toContain('persisted-output');
      expect(block.match(/<openviking-context /g), start.slice(0, 3000)).toHaveLength(1);
      expect(block.length).toBeGreaterThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      for (const text of [
        BIG_PROFILE_FIRST,
        BIG_PROFILE_LAST,
        '</user-profile>',
        'default/topic-000.md',
        'default/topic-119.md',
        '</available-memories>',
      ])
        expect(block, block.slice(-600)).toContain(text);
      expect(block).not.toMatch(/\+\d+ more/);
    });

    it("through the hook command (module off): one closed block within the cap, the profile's first and last lines and the listing", () => {
      const { block, start } = startBlock('shell');
      expect(start, world.evidence()).not.toBe('');
      expect(start).not.toContain('persisted-output');
      expect(start).not.toContain('Full output saved to');
      expect(block.match(/<openviking-context /g), start.slice(0, 3000)).toHaveLength(1);
      expect(block.length).toBeLessThanOrEqual(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expect(block).toContain(BIG_PROFILE_FIRST);
      expect(block).toContain(BIG_PROFILE_LAST);
      expect(block).toContain('</user-profile>');
      expect(block).toMatch(/<available-memories>[\s\S]*topic-000\.md[\s\S]*<\/available-memories>/);
    });

    it('the recall block arrives whole too, both ways', () => {
      for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
        const recall = hookContext(startBlock(mode).system, 'UserPromptSubmit');
        expect(recall, world.evidence()).toContain(SEED.recallMarker);
        expect(recall).not.toContain('persisted-output');
        expect(recall).toContain('</openviking-context>');
      }
    });
  });
});
