/**
 * What a later session gets back from the REAL OpenViking server, through
 * the bundled hooks as CodeBuddy runs them: a first session states a fact
 * and ends (the plugin captures and commits it; the server's phase 2 has the
 * model provider extract a memory from it), then a second session of the
 * same project starts and prompts. It proves:
 * - the start block shows the profile the server holds
 *   (`viking://user/<u>/memories/profile.md`) and says what the last
 *   session taught (D36: the real task's `{"memory_write": n}`, F26);
 * - the prompt's recall block holds the memory the server EXTRACTED from the
 *   earlier captured session, by its URI under the project peer and its
 *   text, recalled through the real `search/search` context face (D7), and
 *   no memory folder beside it (0.5.2 answers the category folder's index
 *   too, F32: recall leaves it out);
 * - the same recall, with the resident helper on as users run it, through
 *   its door (D45: hooks/relay.sh answered with no node on the hook's side).
 * (Nothing here says what is NOT recalled: the fake's hashed-word vectors
 * score unrelated prompts above the threshold, and a dev-mode search spans
 * every user's memories, F31.)
 * The double cannot prove this: it extracts nothing and ranks by keywords.
 *
 * @module
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugLines, doorAnswers, residentsListening } from '../support/resident.js';
import { waitFor } from '../support/wait.js';
import { ov, settledTask } from './support/http.js';
import { sharedServers } from './support/servers.js';
import { createRealWorld, devIdentity, type RealWorld } from './support/world.js';

const { dev } = sharedServers();

const PROFILE = '# Profile\n\nThe user is Ada Quill (PROFILE-QUILL-31), who maintains the zircon ledger.';
const FACT = 'the zircon ledger rotates its signing keys every Sunday';

const ORIGIN = `git@github.com:acme/real-recall-${process.pid}-${Date.now().toString(36)}.git`;
const RECALL_QUESTION = 'How often does the zircon ledger rotate its signing keys?';

let world: RealWorld;
let memoryUri: string;

beforeAll(async () => {
  world = createRealWorld({ url: dev.url, identity: devIdentity('recall'), origin: ORIGIN });
  memoryUri = `viking://user/${world.user}/peers/${world.peer}/memories/preferences/${world.peer}/zircon_ledger_rotates.md`;
  const profile = await ov(dev.url, world.speaker, '/api/v1/content/write', {
    uri: `viking://user/${world.user}/memories/profile.md`,
    content: PROFILE,
    mode: 'create',
    wait: true,
  });
  expect(profile.status, JSON.stringify(profile.error)).toBe('ok');
  const first = world.session();
  await first.fire('SessionStart', first.p.sessionStart());
  first.turn(`Please review the ledger code. Remember: ${FACT}.`, 'Reviewed; noted the rotation.');
  await first.fire('Stop', first.p.stop('Reviewed; noted the rotation.'));
  await first.fire('SessionEnd', first.p.sessionEnd());
  const [commit] = await world.commits(1);
  const task = await settledTask(dev.url, world.speaker, commit!.taskId);
  expect(task.status, JSON.stringify(task)).toBe('completed');
  // Phase 2 is over; the memory's vector may still be queued: recall is one shot, so wait until it is searchable.
  await waitFor(
    async () => {
      const found = await ov(dev.url, world.speaker, '/api/v1/search/find', {
        query: FACT,
        target_uri: `viking://user/${world.user}/peers/${world.peer}/memories`,
      });
      return (found.result?.memories ?? []).some((item: { uri: string }) => item.uri === memoryUri);
    },
    { timeoutMs: 30_000, intervalMs: 250, what: `${memoryUri} to be searchable` },
  );
  await world.settle();
});

afterAll(async () => {
  await world?.dispose();
});

describe('recall on the real server', () => {
  it('starts the next session with the profile the server holds and what the last session taught', async () => {
    const next = world.session();
    const start = await next.fire('SessionStart', next.p.sessionStart());
    const context = start.merged.hostAdditionalContext ?? '';
    expect(context).toContain(`<user-profile uri="viking://user/${world.user}/memories/profile.md">`);
    expect(context).toContain('The user is Ada Quill (PROFILE-QUILL-31)');
    expect(start.merged.systemMessages.join('\n')).toContain(
      'OpenViking learned 1 memory from your last session in this project.',
    );
  });

  it('recalls for a later prompt the memory the server extracted from the earlier session', async () => {
    const next = world.session();
    await next.fire('SessionStart', next.p.sessionStart());
    const prompt = await next.fire('UserPromptSubmit', next.p.userPromptSubmit(RECALL_QUESTION));
    const context = prompt.merged.hostAdditionalContext ?? '';
    expect(context).toContain('<openviking-context source="recall"');
    expect(context).toMatch(extractedMemory());
    // 0.5.2 also answers the memory's category folder (its template index, F32): never injected as a memory.
    const injected = [...context.matchAll(/<memory uri="([^"]+)"/g)].map((match) => match[1]!);
    expect(injected.filter((uri) => !uri.endsWith('.md'))).toEqual([]);
    expect(context).not.toContain('Preferences Overview');
  });
});

describe('the same recall through the resident helper, as users run it', () => {
  it("answers a later session's prompt through the resident's door, with the same memory", async () => {
    // The same user and project, the resident on: the first session's prompt goes through node and opens the door
    // of this environment; the next session's hooks have the same one (a new session: recall dedups within one).
    const resident = createRealWorld({ url: dev.url, identity: { user: world.user }, origin: ORIGIN, resident: true });
    try {
      const first = resident.session();
      await first.fire('SessionStart', first.p.sessionStart());
      await residentsListening(resident.dataDir);
      const throughNode = await first.fire('UserPromptSubmit', first.p.userPromptSubmit(RECALL_QUESTION));
      expect(throughNode.merged.hostAdditionalContext ?? '').toMatch(extractedMemory());
      const log = join(resident.home, 'debug.log');
      const answered = () => doorAnswers(debugLines(log), 'UserPromptSubmit');
      const before = answered();
      const second = resident.session();
      await second.fire('SessionStart', second.p.sessionStart());
      const throughDoor = await second.fire('UserPromptSubmit', second.p.userPromptSubmit(RECALL_QUESTION));
      expect(throughDoor.merged.hostAdditionalContext ?? '').toMatch(extractedMemory());
      // The resident logs its answer once it has sent it: the line may land just after the hook ended.
      await waitFor(() => answered() > before, {
        timeoutMs: 10_000,
        intervalMs: 25,
        what: "the resident's debug line of the prompt it answered through its door",
      });
      expect(answered() - before).toBe(1);
    } finally {
      await resident.dispose();
    }
  });
});

/** The memory the server extracted, as the recall block holds it. */
function extractedMemory(): RegExp {
  return new RegExp(`<memory uri="${escape(memoryUri)}" type="preferences" score="[0-9.]+">\\n- ${FACT}\\n</memory>`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
