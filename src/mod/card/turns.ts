/**
 * The memory card's data, per session: for each turn, the memories recalled
 * for it (URI, score) and the agent's own OpenViking lookups through the
 * plugin's MCP tools. Pure values and changes, so where recall ran does not
 * matter: today the card reads the block the shell recall injected (its
 * `recalledInBlock` reader, recall/block.ts); a recall run in the module
 * hands its items to `openTurn` the same way.
 *
 * The host keeps the data in `$.state` (card/persist.ts); a reply row of the
 * conversation (its uuid is what a render names) maps to the turn it answers.
 * URIs come from the server and queries from the model, and both are kept
 * in the host's store for `--continue`: they pass the printable filter when
 * recorded here and again when drawn (view.ts; issue 29 item 2).
 *
 * @module
 */
import type { CardLookup, CardMemory, CardReply, CardTurn } from '../../../.claude-plugin/module-types.js';
import { recalledInBlock } from '../../recall/block.js';
import { mcpToolName, type HostKind } from '../../protocol/hostTools.js';
import { printableLine } from '../../util/printable.js';

/**
 * The card's values: one recalled memory (URI, score), one call of the
 * plugin's MCP tools the agent made, a turn, an answer row and its turn.
 * Declared once, in the module's types contract (.claude-plugin/module-types.d.ts),
 * which Claude Code holds the module's `$.state` to (FC24).
 */
export type { CardLookup, CardMemory, CardReply, CardTurn };

/** Newest turns (and reply rows) kept per session; older cards are no longer drawn. */
export const MAX_TURNS = 50;
/** Sessions whose cards the store keeps for `--continue`. */
export const MAX_SESSIONS = 20;
/** Longest query shown. */
const MAX_QUERY_CHARS = 80;

/** The memories recalled for a prompt, read from the blocks of ours (`isOurs`: ourBlock.ts) in the context the prompt's hooks injected. */
export function recalledInContext(
  additionalContext: readonly unknown[] | undefined,
  isOurs: (mark: string | undefined, body: string) => boolean,
): CardMemory[] {
  const texts = (additionalContext ?? []).filter((entry): entry is string => typeof entry === 'string');
  return texts
    .flatMap((text) => recalledInBlock(text, isOurs))
    .map(({ uri, score }) => (score === undefined ? { uri } : { uri, score }));
}

/** The turns with a new one for the prompt just submitted. */
export function openTurn(turns: readonly CardTurn[], recalled: readonly CardMemory[]): CardTurn[] {
  const n = (turns.at(-1)?.n ?? 0) + 1;
  const memories = recalled.map((memory) => ({ ...memory, uri: printableLine(memory.uri) }));
  return [...turns, { n, recalled: memories, lookups: [] }].slice(-MAX_TURNS);
}

/** The turns with `lookup` added to the newest (none open: unchanged). */
export function addLookup(turns: readonly CardTurn[], lookup: CardLookup): CardTurn[] {
  const last = turns.at(-1);
  if (last === undefined) return [...turns];
  return [...turns.slice(0, -1), { ...last, lookups: [...last.lookups, lookup] }];
}

/** The replies with `id` answering the newest turn (a later text row of the same answer replaces the earlier). */
export function addReply(replies: readonly CardReply[], turns: readonly CardTurn[], id: string): CardReply[] {
  const n = turns.at(-1)?.n;
  if (n === undefined) return [...replies];
  return [...replies.filter((reply) => reply.n !== n && reply.id !== id), { id, n }].slice(-MAX_TURNS);
}

/** The turn a reply row answers, if the card knows it. */
export function turnOfReply(
  turns: readonly CardTurn[],
  replies: readonly CardReply[],
  id: string | undefined,
): CardTurn | undefined {
  if (id === undefined) return undefined;
  const n = replies.find((reply) => reply.id === id)?.n;
  return n === undefined ? undefined : turns.find((turn) => turn.n === n);
}

/** A turn worth a card: something was recalled or looked up. */
export function hasCard(turn: CardTurn): boolean {
  return turn.recalled.length > 0 || turn.lookups.length > 0;
}

/** The MCP tool a name denotes on either host (`mcp__openviking__search`, `mcp__plugin_openviking_openviking__search`), else undefined. */
export function lookupToolOf(toolName: string): string | undefined {
  for (const host of ['claude-code', 'codebuddy'] as const satisfies readonly HostKind[]) {
    const prefix = mcpToolName(host, '');
    if (toolName.startsWith(prefix) && toolName.length > prefix.length) return toolName.slice(prefix.length);
  }
  return undefined;
}

/** Matches the plugin's MCP tools on either host (the `tool.call` matcher of the lookups). */
export const LOOKUP_TOOLS = new RegExp(
  `^(?:${['claude-code', 'codebuddy'].map((host) => mcpToolName(host as HostKind, '')).join('|')})`,
);

/** A lookup as the card lists it, from the call's arguments and what it answered. */
export function lookupOf(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  answer: { text?: unknown; isError?: unknown; deny?: unknown },
): CardLookup {
  const asked = ['query', 'uris', 'uri', 'pattern']
    .map((key) => args[key])
    .find((value) => typeof value === 'string' || Array.isArray(value));
  const query = printableLine(Array.isArray(asked) ? asked.join(', ') : String(asked ?? '')).slice(0, MAX_QUERY_CHARS);
  const text = typeof answer.text === 'string' ? answer.text : '';
  return {
    tool: printableLine(tool),
    query,
    hits: (text.match(/viking:\/\/[^\s"'<>)\]]+/g) ?? []).length,
    isError: answer.deny !== undefined || answer.isError === true,
  };
}

/** The open turns after `open`/`close` of `which` ('all' or a turn number). */
export function setExpanded(
  expanded: readonly number[],
  turns: readonly CardTurn[],
  which: number | 'all',
  isOpen: boolean,
): number[] {
  const ns = which === 'all' ? turns.map((turn) => turn.n) : [which];
  return isOpen ? [...new Set([...expanded, ...ns])] : expanded.filter((n) => !ns.includes(n));
}
