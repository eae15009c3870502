/**
 * `/openviking:learned` (`node scripts/hook.mjs learned`): per recent session
 * of this workspace, newest first, what each of its commits taught (DESIGN
 * D36): the memories the server extracted, each by its URI and first line
 * where the server's diff names them (F25), the extractions that failed and
 * those still being processed, and the session's own running total on the
 * server (which counts the server's automatic commits too).
 *
 * It asks the server about every task not known to be over (at most
 * LIST_CONCURRENCY at once), reads each completed commit's diff, and one
 * session record per session; what it learned is saved to the ledger and
 * counts as told (the next session start does not say it again).
 *
 * @module
 */
import type { OpenVikingClient } from '../openviking/types.js';
import type { CommitNote, LearnedLedger, TaskOutcome } from '../store/learned.js';
import { isRecord, parseJson } from '../util/json.js';
import { isFinal, memoriesText, outcomeOf, withOutcome } from './outcome.js';

/** Sessions listed. */
export const LIST_SESSIONS = 10;
const LIST_CONCURRENCY = 4;
const FIRST_LINE_CHARS = 120;

/** One memory a diff names. */
interface NamedMemory {
  uri: string;
  firstLine: string;
  change: 'added' | 'updated';
}

/** The listing's text and the ledger with what was learned and told. */
export async function listLearned(
  ledger: LearnedLedger,
  client: OpenVikingClient,
  now: () => number,
  workspace: string,
): Promise<{ text: string; ledger: LearnedLedger }> {
  const sessions = recentSessions(ledger.commits);
  if (sessions.length === 0)
    return {
      text: `No commit of a session of ${workspace} is recorded yet: OpenViking extracts memories when a session is committed (at its end, or by the next session start once it is idle for 30 minutes; /openviking:import brings older sessions in).\n`,
      ledger,
    };
  let updated = ledger;
  const listed = sessions.flatMap((session) => session.commits);
  await inBatches(
    listed.filter((commit) => !isFinal(updated.outcomes[commit.taskId])),
    async (commit) => {
      const outcome = outcomeOf(await client.getTask(commit.taskId), now());
      if (outcome !== undefined) updated = withOutcome(updated, commit.taskId, outcome);
    },
  );
  const named = new Map<string, NamedMemory[] | undefined>();
  await inBatches(listed, async (commit) => {
    const diffUri = updated.outcomes[commit.taskId]?.diffUri;
    if (diffUri !== undefined) named.set(commit.taskId, await readDiff(client, diffUri));
  });
  const totals = new Map<string, number | undefined>();
  await inBatches(sessions, async ({ ovSessionId }) => {
    const got = await client.getSession(ovSessionId);
    totals.set(ovSessionId, got.ok ? got.result.memories_extracted?.['total'] : undefined);
  });
  const lines = [`What OpenViking learned from the recent sessions of ${workspace} (newest first):`, ''];
  for (const session of sessions) {
    const total = totals.get(session.ovSessionId);
    const onServer = total === undefined ? '' : `; ${memoriesText(total)} in all on the server`;
    lines.push(
      `${session.ovSessionId}  (${session.commits.length} commit${session.commits.length === 1 ? '' : 's'}${onServer})`,
    );
    for (const commit of session.commits)
      lines.push(...describeCommit(commit, updated.outcomes[commit.taskId], named.get(commit.taskId)));
    lines.push('');
  }
  const told = Object.fromEntries(
    Object.entries(updated.outcomes).map(([taskId, outcome]) => [
      taskId,
      isFinal(outcome) && outcome.reportedAt === undefined ? { ...outcome, reportedAt: now() } : outcome,
    ]),
  );
  return { text: `${lines.join('\n')}`, ledger: { ...updated, outcomes: told } };
}

interface SessionCommits {
  ovSessionId: string;
  /** Newest first. */
  commits: CommitNote[];
}

/** The newest LIST_SESSIONS sessions by their latest commit, each with its commits newest first. */
function recentSessions(commits: readonly CommitNote[]): SessionCommits[] {
  const bySession = new Map<string, CommitNote[]>();
  for (const commit of [...commits].sort((a, b) => b.at - a.at))
    bySession.set(commit.ovSessionId, [...(bySession.get(commit.ovSessionId) ?? []), commit]);
  return [...bySession.entries()]
    .slice(0, LIST_SESSIONS)
    .map(([ovSessionId, list]) => ({ ovSessionId, commits: list }));
}

function describeCommit(
  commit: CommitNote,
  outcome: TaskOutcome | undefined,
  named: NamedMemory[] | undefined,
): string[] {
  const head = `  ${new Date(commit.at).toISOString().replace('T', ' ').slice(0, 16)} UTC  `;
  if (outcome === undefined) return [`${head}not known yet: the server did not answer (task ${commit.taskId})`];
  switch (outcome.status) {
    case 'completed': {
      const count = outcome.memories ?? 0;
      if (count === 0) return [`${head}no memory extracted`];
      const byCategory = Object.entries(outcome.categories ?? {})
        .filter(([, n]) => n > 0)
        .map(([category, n]) => `${category} ${n}`)
        .join(', ');
      const which =
        named === undefined || named.length === 0
          ? ['      (the server did not say which)']
          : named.map(
              (memory) => `      ${memory.uri}${memory.change === 'updated' ? ' (updated)' : ''} — ${memory.firstLine}`,
            );
      return [`${head}${memoriesText(count)}${byCategory ? ` (${byCategory})` : ''}`, ...which];
    }
    case 'failed':
      return [`${head}extraction failed: ${(outcome.error ?? 'no reason given').replace(/\s+/g, ' ').slice(0, 300)}`];
    case 'expired':
      return [`${head}the server no longer keeps this task (completed ones are kept a day, failed ones a week)`];
    case 'cancelled':
      return [`${head}extraction was cancelled`];
    default:
      return [`${head}still being processed (${outcome.status})`];
  }
}

/** The memories a `memory_diff.json` adds or updates, or undefined when it cannot be read. */
async function readDiff(client: OpenVikingClient, uri: string): Promise<NamedMemory[] | undefined> {
  const read = await client.read(uri);
  const diff = read.ok ? parseJson(read.result) : undefined;
  const operations = isRecord(diff) && isRecord(diff['operations']) ? diff['operations'] : undefined;
  if (operations === undefined) return undefined;
  const of = (key: string, change: NamedMemory['change']): NamedMemory[] =>
    (Array.isArray(operations[key]) ? operations[key] : []).flatMap((item: unknown) =>
      isRecord(item) && typeof item['uri'] === 'string'
        ? [{ uri: item['uri'], firstLine: firstLine(item['after']), change }]
        : [],
    );
  return [...of('adds', 'added'), ...of('updates', 'updated')];
}

/** The first line with text, without a heading's `#`s, cut to FIRST_LINE_CHARS. */
function firstLine(text: unknown): string {
  if (typeof text !== 'string') return '';
  const line = text
    .split('\n')
    .map((candidate) => candidate.replace(/^#+\s*/, '').trim())
    .find((candidate) => candidate !== '');
  const value = line ?? '';
  return value.length > FIRST_LINE_CHARS ? `${value.slice(0, FIRST_LINE_CHARS - 1)}…` : value;
}

/** Runs `work` over `items`, LIST_CONCURRENCY at a time. */
async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let from = 0; from < items.length; from += LIST_CONCURRENCY)
    await Promise.all(items.slice(from, from + LIST_CONCURRENCY).map(work));
}
