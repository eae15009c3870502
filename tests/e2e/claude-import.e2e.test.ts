/**
 * Claude Code scenario 9 — memory from day one, and memory that reports back
 * (DESIGN D35, D36), on the real CLI: a session run without the plugin
 * leaves its transcript where Claude Code keeps it; `node scripts/hook.mjs
 * import` brings it into the session live capture would have used
 * (`cb-<the CLI's session id>`) exactly once and commits it; a second
 * import sends nothing. The next session with the plugin (the hooks module
 * on, as shipped) says what that commit taught in one line that reaches the
 * user (a `$.ui.log`: stream-json `system`/`ui_log`, FC18; the hook
 * command's `systemMessage` when the module handed the start to it, as it
 * does under load past its preparation's bound, D30) and not the model.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery } from './support/chat-types.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { countMessages } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import type { ProcessRun } from '../support/spawn-hook.js';
import { endedHoursAgo, importFromShell } from './support/import.js';

const LEARNED = 'OpenViking learned 1 memory from your last session in this project.';

/** A stream-json line of `claude -p --output-format stream-json --verbose`. */
interface StreamLine {
  type?: string;
  subtype?: string;
  text?: string;
  hook_event?: string;
  output?: string;
}

/** The `systemMessage` of a hook command's JSON answer, if it has one. */
function systemMessageOf(output: string | undefined): string | undefined {
  try {
    const answer = JSON.parse(output ?? '') as { systemMessage?: unknown };
    return typeof answer.systemMessage === 'string' ? answer.systemMessage : undefined;
  } catch {
    return undefined;
  }
}

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let before: CliRun;
  let imported: ProcessRun;
  let importedAgain: ProcessRun;
  let after: CliRun;
  let firstSession = '';

  beforeAll(async () => {
    world = await createClaudeWorld(
      version,
      'import',
      (call) => ({ text: `ANSWER-${/E2E-CCIMP-\d/.exec(lastUserQuery(call))?.[0] ?? 'other'}` }),
      { extractOnCommit: true },
    );
    before = await runClaude(world.sandbox, 'E2E-CCIMP-1 which database backs the cache', { pluginDirs: [] });
    firstSession = claudeSessionIdOf(world.model.calls('conversation')[0]);
    // The session ended two hours ago: not live any more (D35).
    endedHoursAgo(world.sandbox.transcripts());
    imported = await importFromShell(world.sandbox, world.ov.url);
    importedAgain = await importFromShell(world.sandbox, world.ov.url);
    after = await runClaude(world.sandbox, 'E2E-CCIMP-2 hello again', {
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
      args: ['--output-format', 'stream-json', '--verbose'],
    });
  }, 240_000);

  afterAll(async () => {
    await world?.dispose();
  });

  describe('Claude Code scenario 9: a session from before the plugin, imported; the next start says what it taught', () => {
    it('the real transcript is imported into cb-<session id> once, committed; a second import sends nothing', () => {
      expectNormalExit(before);
      expect(firstSession).not.toBe('');
      expect(imported.exitCode, `${imported.stdout}${imported.stderr}\n${world.evidence()}`).toBe(0);
      expect(imported.stdout).toMatch(/imported 1 session · 1 turns · 2 messages/);
      const session = world.ov.session(`cb-${firstSession}`);
      expect(countMessages(session, 'user', 'E2E-CCIMP-1'), world.evidence()).toBe(1);
      expect(countMessages(session, 'assistant', 'ANSWER-E2E-CCIMP-1')).toBe(1);
      expect(session?.commits.map((commit) => commit.status)).toEqual(['accepted']);
      expect(importedAgain.stdout).toMatch(/nothing new to import/);
      expect(importedAgain.stdout).toMatch(/1 imported before/);
    });

    it('the next session with the plugin tells the user once, in one line the model never sees', () => {
      expectNormalExit(after);
      const lines = after.stdout
        .split('\n')
        .filter((line) => line.trim().startsWith('{'))
        .map((line) => JSON.parse(line) as StreamLine);
      // The module's `$.ui.log` (FC18); or, when the module handed the start to the hook command (its local
      // preparation past its bound under load, D30), that command's `systemMessage`. One of the two, once.
      const told = [
        ...lines.filter((line) => line.type === 'system' && line.subtype === 'ui_log').map((line) => line.text),
        ...lines
          .filter((line) => line.subtype === 'hook_response' && line.hook_event === 'SessionStart')
          .map((line) => systemMessageOf(line.output)),
      ].filter((text) => text?.includes('OpenViking learned'));
      expect(told, `${after.stdout}\n${world.evidence()}`).toEqual([LEARNED]);
      const seen = JSON.stringify(world.model.calls('conversation').map((call) => call.messages));
      expect(seen).not.toContain('OpenViking learned');
      expect(world.ov.requests({ method: 'GET', path: /^\/api\/v1\/tasks\// })).toHaveLength(1);
    });
  });
});
