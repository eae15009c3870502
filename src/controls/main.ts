/**
 * The user's controls over memory (issue 17.2), run from a shell or a
 * slash command (commands/recall.md, commands/why.md):
 *
 * - `node hook.mjs recall-preview <query…>`: what recall would inject for
 *   this query in this workspace (same tiers, project peer, threshold and
 *   exclusions as the prompt hook), with URIs and scores. No session id is
 *   sent, so the preview neither expands the query with a session's turns
 *   nor enters the server's dedup ledger. `/openviking:recall` passes the
 *   query in a file instead (`--new-query-file`, then `--query-id <id>`:
 *   queryFile.ts), so it never goes through a shell.
 * - `node hook.mjs why [--session ID]`: what the plugin injected into a
 *   session (why/record.ts): the one asked for, else the host's current
 *   session when the shell knows it, else this folder's newest; each
 *   recall says which process answered it (hook, resident helper, module).
 * - `node hook.mjs learned`: what recent sessions of this folder taught
 *   (learned.ts, DESIGN D36).
 * - `node hook.mjs trust [--revoke]`: the user's approval of the peer a
 *   committed workspace file names here (trust.ts, DESIGN D32).
 *
 * A lazy module of its own (scripts/lazy/controls.cjs): nothing here runs
 * on a hook's path.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import { recallMemories } from '../recall/cascade.js';
import { readRecallKnown, rememberRecall } from '../recall/known.js';
import { OV_SESSION_PREFIX, ovSessionId } from '../session/ids.js';
import { openStageContext, recallPeers } from '../session/stageContext.js';
import { resolveWorkspace } from '../session/workspace.js';
import { memoryOffReason } from '../session/switches.js';
import { resolveDataDir } from '../store/paths.js';
import { answeredByPhrase } from '../store/status.js';
import { outboundQuery } from '../transcript/privacy.js';
import { newestWhySession, readWhy, type WhyEntry } from '../why/record.js';
import { inertForCommand } from '../protocol/commandOutput.js';
import { printable, printableLine } from '../util/printable.js';
import { newQueryFile, takeQueryFile } from './queryFile.js';
import { counted } from '../util/plural.js';
import { learnedCommand } from './learned.js';
import { runTrust } from './trust.js';

export interface ControlResult {
  text: string;
  code: number;
  /** A problem with the arguments: the command line prints it with the usage (hook/cli.ts). */
  usage?: string;
}

/** A control and its arguments, as the command line parsed them (hook/commands.ts). */
export type Control =
  | { name: 'why'; session?: string | undefined }
  | { name: 'recall-preview'; query: string; newQueryFile: boolean; queryId?: string | undefined }
  | { name: 'learned' }
  | { name: 'trust'; revoke: boolean };

const PREVIEW_TIMEOUT_MS = 8_000;

/**
 * Runs a control; its text may land in a slash command, so it holds no
 * template tag (protocol/commandOutput.ts), and it carries URIs, gists and
 * queries from the server, memories and records, so nothing in it can drive
 * the terminal (util/printable.ts; each such field on one line).
 */
export async function runControl(control: Control, deps: StageDeps): Promise<ControlResult> {
  const result = await controlResult(control, deps);
  return { ...result, text: inertForCommand(printable(result.text)) };
}

function controlResult(control: Control, deps: StageDeps): ControlResult | Promise<ControlResult> {
  switch (control.name) {
    case 'why':
      return whyReport(control.session, deps);
    case 'recall-preview':
      return recallPreviewCommand(control, deps);
    case 'learned':
      return learnedCommand(deps);
    case 'trust':
      return runTrust(control.revoke, deps);
  }
}

async function recallPreviewCommand(
  { query, newQueryFile: asksForFile, queryId }: Extract<Control, { name: 'recall-preview' }>,
  deps: StageDeps,
): Promise<ControlResult> {
  const given = [asksForFile, queryId !== undefined, query !== ''].filter(Boolean).length;
  if (given !== 1)
    return {
      text: '',
      code: 2,
      usage: `${given === 0 ? 'it needs' : 'it takes one of'} a query, --new-query-file or --query-id ID`,
    };
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  if (asksForFile) {
    const { id, path } = newQueryFile(dataDir, deps.now());
    return { text: `query file: ${path}\nquery id: ${id}\n`, code: 0 };
  }
  if (queryId !== undefined) {
    const taken = takeQueryFile(dataDir, queryId);
    if ('problem' in taken)
      return taken.badId
        ? { text: '', code: 2, usage: taken.problem }
        : { text: `recall-preview: ${taken.problem}\n`, code: 2 };
    if (taken.query.trim() === '')
      return { text: 'recall-preview: the query file was empty; nothing is sent.\n', code: 2 };
    return recallPreview(taken.query.trim(), deps);
  }
  return recallPreview(query, deps);
}

async function recallPreview(asked: string, deps: StageDeps): Promise<ControlResult> {
  // The same outbound filter as the prompt's recall: no <private> section and no secret leaves.
  const query = outboundQuery(asked);
  if (query === '')
    return {
      text: 'Recall preview: nothing is left of the query once private sections and secrets are removed, so nothing is sent.\n',
      code: 0,
    };
  // As the prompt stage sees this directory (configuration, project, switches, peer), with no session.
  const ctx = openStageContext({ hook_event_name: 'UserPromptSubmit' }, deps, () => PREVIEW_TIMEOUT_MS);
  const { config, project, settings, client, dataDir, workspace } = ctx;
  const off = memoryOffReason({ config, project, workspace });
  if (off !== undefined)
    return { text: `Recall preview: OpenViking memory is off here (${off}), so nothing is sent.\n`, code: 0 };
  const { outcome, learned } = await recallMemories({
    client,
    settings,
    credentials: config.credentials,
    known: readRecallKnown(dataDir, config.credentials, deps.now()),
    ovSessionId: '',
    query,
    ...recallPeers(ctx, deps),
  });
  await rememberRecall(dataDir, config.credentials, learned, deps.now());
  const lines = [
    `Recall preview for: ${printableLine(query)}`,
    `project peer: ${project.peerId ?? '(none)'}  [${project.peerSource}]`,
  ];
  if (!settings.autoRecall)
    lines.push(
      'note: automatic recall is off here (configuration or .openviking/config.json); this is what it would find.',
    );
  if (outcome.status === 'failed') {
    lines.push(
      `recall failed (${outcome.tier}): ${printableLine(outcome.failure.code)} ${printableLine(outcome.failure.message)}`,
    );
    return { text: `${lines.join('\n')}\n`, code: 1 };
  }
  if (outcome.status === 'empty')
    lines.push(`nothing above the score threshold ${settings.scoreThreshold} (tier: ${outcome.tier})`);
  else {
    lines.push(
      `${counted(outcome.items.length, 'memory', 'memories')} (tier: ${outcome.tier}, threshold ${settings.scoreThreshold}):`,
    );
    for (const item of outcome.items) {
      const gist = printableLine(item.text).replace(/\s+/g, ' ').trim().slice(0, 160);
      lines.push(
        `- ${item.score === undefined ? '  -  ' : item.score.toFixed(2)}  ${printableLine(item.uri)}${item.category ? `  (${printableLine(item.category)})` : ''}`,
        ...(gist ? [`        ${gist}`] : []),
      );
    }
  }
  return { text: `${lines.join('\n')}\n`, code: 0 };
}

function whyReport(asked: string | undefined, deps: StageDeps): ControlResult {
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const { session, how } = whichSession(asked, deps, dataDir);
  if (session === undefined || session === '')
    return {
      text: `No injection recorded yet for ${how} (the plugin records what it injects from the next session start on).\n`,
      code: 0,
    };
  const entries = readWhy(dataDir, session);
  if (entries.length === 0) return { text: `Nothing recorded for session ${session}.\n`, code: 0 };
  const lines = [
    `What OpenViking injected into session ${session} (${how}; ${entries.length} time${entries.length === 1 ? '' : 's'}):`,
    '',
  ];
  for (const entry of entries) lines.push(...describe(entry), '');
  return { text: `${lines.join('\n')}`, code: 0 };
}

/**
 * The session `why` reports on: `--session ID`; else the host's own session
 * (Claude Code gives the shell commands it runs `CLAUDE_CODE_SESSION_ID`,
 * and CodeBuddy its Bash tool `CODEBUDDY_SESSION_ID`); else, from a slash
 * command whose shell knows no session, the newest session of this folder;
 * `how` says which, for the reader.
 */
function whichSession(
  asked: string | undefined,
  deps: StageDeps,
  dataDir: string,
): { session: string | undefined; how: string } {
  const named =
    asked ??
    [deps.env.CLAUDE_CODE_SESSION_ID, deps.env.CODEBUDDY_SESSION_ID].find(
      (id) => id !== undefined && id.trim() !== '' && !id.includes('${'),
    );
  if (named !== undefined && named.trim() !== '') {
    const id = named.trim();
    return {
      session: id.startsWith(OV_SESSION_PREFIX) ? id : ovSessionId(id),
      how: asked !== undefined ? 'as asked' : 'this session',
    };
  }
  const folder = resolveWorkspace({}, deps.env, deps.cwd);
  return { session: newestWhySession(dataDir, folder), how: `the newest session of ${folder}` };
}

function describe(entry: WhyEntry): string[] {
  const when = new Date(entry.at).toISOString();
  const head =
    entry.kind === 'start'
      ? `${when}  session start (${printableLine(entry.detail)}): profile block`
      : `${when}  recall for: ${printableLine(entry.detail)}`;
  const peer = entry.peer ? `  [project ${printableLine(entry.peer)}]` : '';
  const items = entry.items.map(
    (item) =>
      `    ${item.score === undefined ? '' : `${item.score.toFixed(2)}  `}${printableLine(item.uri)}${item.category ? `  (${printableLine(item.category)})` : ''}`,
  );
  const more = typeof entry.moreItems === 'number' && entry.moreItems > 0 ? [`    … and ${entry.moreItems} more`] : [];
  return [
    `${head}${peer}`,
    ...(items.length > 0 ? items : ['    (no URI in the block)']),
    ...more,
    `    ${entry.text.length} characters injected${answeredByPhrase(entry.by)}`,
  ];
}
