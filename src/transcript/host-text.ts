/**
 * Host markup inside user turns, per format. CodeBuddy may wrap the typed
 * prompt in `<user_query>` and surround it with its own blocks (reminders,
 * quoted history, summaries); Claude Code stores slash commands and their
 * local output as tagged text. What remains is what the person typed.
 *
 * The CodeBuddy tag list mirrors OpenViking's server-side `workbuddy` ingest
 * adapter, which parses the same format. The 2.117 transcripts seen here
 * carry the raw prompt only; the unwrapping is for hosts that store more.
 *
 * @module
 */
import { createTagBlockStripper } from './tag-blocks.js';

const stripCodeBuddyHostBlocks = createTagBlockStripper(
  [
    'system-reminder',
    'memory_and_skills_reminder',
    'automation_system_reminder',
    'previous_user_message',
    'previous_assistant_message',
    'previous_tool_call',
    'cb_summary',
    'conversation_history_summary',
    'additional_data',
    'user_info',
    'identity_context',
    'craft_mode',
    'connector-status',
  ],
  'drop-tag',
);

const USER_QUERY_OPEN = /<user_query\s{0,8}>/gi;
const USER_QUERY_CLOSE = /<\/user_query\s{0,8}>/gi;

/** Bodies of `<user_query>…</user_query>` pairs, scanned forward once. */
function userQueries(text: string): string[] {
  const open = new RegExp(USER_QUERY_OPEN);
  const close = new RegExp(USER_QUERY_CLOSE);
  const bodies: string[] = [];
  for (let start = open.exec(text); start !== null; start = open.exec(text)) {
    close.lastIndex = open.lastIndex;
    const end = close.exec(text);
    if (end === null) break;
    bodies.push(text.slice(open.lastIndex, end.index).trim());
    open.lastIndex = close.lastIndex;
  }
  return bodies.filter((body) => body !== '');
}

/**
 * The human ask in a CodeBuddy user text: host blocks removed first (some of
 * them quote earlier `<user_query>`s), then the `<user_query>` body if there
 * is one (the longest when several), else the remaining text.
 */
export function codeBuddyUserText(text: string): string {
  const stripped = text.includes('<') ? stripCodeBuddyHostBlocks(text) : text;
  const queries = userQueries(stripped);
  if (queries.length === 0) return stripped.trim();
  return queries.reduce((longest, query) => (query.length > longest.length ? query : longest));
}

const stripClaudeCommandOutput = createTagBlockStripper(
  ['local-command-stdout', 'local-command-stderr', 'local-command-caveat', 'command-message'],
  'drop-tag',
);
const COMMAND_NAME = /<command-name>([^<]{0,200})<\/command-name>/;
const COMMAND_ARGS = /<command-args>([^<]{0,100000})<\/command-args>/;
const INTERRUPTION = /^\[Request interrupted by user[^\]\n]{0,40}\]$/;

/**
 * The typed text of a Claude Code user text block: a slash command becomes
 * `/name args`, local command output and interruption notices become ''.
 */
export function claudeCodeUserText(text: string): string {
  if (INTERRUPTION.test(text.trim())) return '';
  if (!text.includes('<')) return text.trim();
  const name = COMMAND_NAME.exec(text)?.[1]?.trim();
  if (name !== undefined) return `${name} ${COMMAND_ARGS.exec(text)?.[1]?.trim() ?? ''}`.trim();
  return stripClaudeCommandOutput(text).trim();
}
