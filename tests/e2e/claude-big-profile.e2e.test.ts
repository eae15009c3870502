/**
 * Claude Code scenario C5 (issue 22 item 3, DESIGN D28): a user with a
 * 40 KB profile and 120 listed preference files. Claude Code passes a shell
 * hook's `additionalContext` whole only up to 10,000 UTF-16 code units;
 * past that the model gets a `<persisted-output>` notice with a 2 KB
 * preview (on d5cc0e5 the 15.6 KB start block arrived so, unclosed, without
 * the profile's end or the listing). Through the real CLI: the first model
 * request carries the start block as ONE closed block, whole, holding the
 * profile's first and last lines and the listing, and no persisted-output
 * notice; the recall block arrives whole too. Runs on every pinned
 * version (2.1.328 and 2.1.332).
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOK_CONTEXT_LIMIT } from '../../src/protocol/hostTools.js';
import { BIG_PROFILE_FIRST, BIG_PROFILE_LAST, bigMemorySeed } from '../support/big-memory.js';
import { systemEntriesText } from './support/anthropic-model.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import { createClaudeWorld, forEachClaudeVersion, requireClaudeCli, type ClaudeWorld } from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { SEED } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { firstMatching, onPrompt } from './support/script.js';
import { requirePluginBuild } from './support/world.js';

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

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let run: CliRun;

  beforeAll(async () => {
    requireClaudeCli(version);
    requirePluginBuild();
    world = await createClaudeWorld(version, 'big-profile', firstMatching([onPrompt('E2E-CC-BIG', { text: ANSWER })]));
    world.ov.seed(bigMemorySeed());
    run = await runClaude(world.sandbox, PROMPT, { pluginDirs: [REPO_ROOT], env: world.pluginEnv });
  });

  afterAll(async () => {
    await world?.dispose();
  });

  describe('Claude Code scenario C5: a 40 KB profile with 120 listed files', () => {
    it('the CLI finishes normally and answers', () => {
      expectNormalExit(run);
      expect(run.stdout, world.evidence()).toContain(ANSWER);
    });

    it('reaches the first model request as one closed block with the profile\'s first and last lines and the listing', () => {
      const system = systemEntriesText(world.model.calls('conversation')[0]);
      const start = hookContext(system, 'SessionStart');
      expect(start, world.evidence()).not.toBe('');
      expect(start).not.toContain('persisted-output');
      expect(start).not.toContain('Full output saved to');
      const block = start.slice(start.indexOf('<openviking-context'), start.lastIndexOf('</openviking-context>') + '</openviking-context>'.length);
      expect(block.match(/<openviking-context /g), start.slice(0, 3000)).toHaveLength(1);
      expect(block.length).toBeLessThanOrEqual(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expect(block).toContain(BIG_PROFILE_FIRST);
      expect(block).toContain(BIG_PROFILE_LAST);
      expect(block).toContain('</user-profile>');
      expect(block).toMatch(/<available-memories>[\s\S]*topic-000\.md[\s\S]*<\/available-memories>/);
    });

    it('the recall block arrives whole too', () => {
      const recall = hookContext(systemEntriesText(world.model.calls('conversation')[0]), 'UserPromptSubmit');
      expect(recall, world.evidence()).toContain(SEED.recallMarker);
      expect(recall).not.toContain('persisted-output');
      expect(recall).toContain('</openviking-context>');
    });
  });
});
