/**
 * The session-start block (openviking-api.md §7.2, with this plugin's
 * changes): ONE `<openviking-context source="<hook source>">` tag that
 * capture strips, the profile (middle-elided when too long), a listing of
 * preference and entity files, and on resume/compact the session's latest
 * archive overview. Everything stored is escaped and framed as data, not
 * instructions (escape.ts), the listing
 * hints name tools that exist, by the current host's names
 * (protocol/hostTools.ts: `list` / `read`; the reference's
 * `memory_recall` does not exist), and the whole stays within
 * `profileTokenBudget` (CJK-aware, tokens.ts). Pure: same input, same bytes.
 *
 * @module
 */
import { asToolNames, deferredToolsClause } from '../protocol/hostTools.js';
import type { HostKind, ToolNames } from '../protocol/hostTools.js';
import { escapeAttribute, escapeBlockText, STORED_DATA_LINE } from '../recall/escape.js';
import { Room } from '../recall/room.js';
import { clipToTokens, clipToUnits, estimateTokens } from '../recall/tokens.js';
import type { ListedMemory, ProfileSources } from './fetch.js';
import { memoriesRoot } from './fetch.js';

export interface StartBlockInput {
  /** The hook's `source` (`startup`, `resume`, `clear`, `compact`). */
  source: string;
  profile?: ProfileSources;
  archiveOverview?: string;
  /** Whose tool names the hints use (a host's bundled tools, or the user's own); default CodeBuddy's. */
  tools?: HostKind | ToolNames;
}

export interface StartBlockBudgets {
  /** Profile + listings. */
  profileTokens: number;
  /** The archive overview. */
  archiveTokens: number;
  /** The host's cap on one hook answer, in UTF-16 code units (DESIGN D28); none: the token budgets alone. */
  maxUnits?: number;
}

/** The block's tool line for `tools`. */
export function startToolsLine(tools: HostKind | ToolNames): string {
  const names = asToolNames(tools);
  return `Long-term memory from OpenViking. Read a memory with ${names.name('read')} {"uris": "<uri>"}, list a folder with ${names.name('list')} {"uri": "<folder>"}; they are deferred tools: ${deferredToolsClause(names.host)}.`;
}

const ELIDED_MARK = '\n... [profile middle elided] ...\n';
const TRUNCATED_MARK = '\n... [profile truncated]';
/** Files this short are cut at the end rather than in the middle. */
const SHORT_PROFILE_LINES = 12;
const HEAD_LINES = 8;
const MIN_TAIL_CHARS = 200;
const MIN_PROFILE_CHARS = 400;
const ARCHIVE_CUT_MARK = '\n... [archive overview truncated]';
/** Under a cap, the archive overview (resume, compact) gets at most this share of the room; the profile and listings the rest. */
const ARCHIVE_SHARE = 1 / 3;

/**
 * The block, or '' when there is nothing to show. Under a cap
 * (`budgets.maxUnits`) the parts share the room in order of use: the
 * archive overview at most a third, the profile half of the rest (its
 * first and last lines), the listings what remains, each cut inside its own
 * element so the frame always closes; a listing cut short ends with a line
 * naming the list tool.
 */
export function renderStartBlock(input: StartBlockInput, budgets: StartBlockBudgets): string {
  const tools = asToolNames(input.tools ?? 'codebuddy');
  const frame = [
    `<openviking-context source="${escapeAttribute(input.source)}">`,
    startToolsLine(tools),
    STORED_DATA_LINE,
  ];
  const close = '</openviking-context>';
  let room =
    budgets.maxUnits === undefined
      ? Infinity
      : budgets.maxUnits - [...frame, close].reduce((sum, line) => sum + line.length + 1, 0);
  const archive = archiveSection(
    input.archiveOverview,
    budgets.archiveTokens,
    input.profile === undefined ? room : Math.floor(room * ARCHIVE_SHARE),
  );
  room -= archive.reduce((sum, section) => sum + section.length + 1, 0);
  const sections = [...profileSections(input.profile, budgets.profileTokens, tools.name('list'), room), ...archive];
  // The shares above are computed to fit; should a part still overflow, the last sections go rather than the frame.
  while (
    sections.length > 0 &&
    budgets.maxUnits !== undefined &&
    [...frame, ...sections, close].join('\n').length > budgets.maxUnits
  )
    sections.pop();
  if (sections.length === 0) return '';
  return [...frame, ...sections, close].join('\n');
}

/**
 * The profile and the listings within `budget` tokens and `maxUnits` code
 * units. The profile comes first; under a cap it gets the room the listings
 * leave of the larger half they may take (the listings are measured first,
 * within half the room), then the listings what the profile left.
 */
function profileSections(
  sources: ProfileSources | undefined,
  budget: number,
  listTool: string,
  maxUnits: number,
): string[] {
  if (sources === undefined) return [];
  const hasListings = sources.preferences.length + sources.entities.length > 0;
  const sections: string[] = [];
  let used = 0;
  let unitsLeft = maxUnits;
  if (sources.profile !== undefined) {
    const uri = `${memoriesRoot(sources.space)}/profile.md`;
    const open = `<user-profile uri="${escapeAttribute(uri)}">`;
    const close = '</user-profile>';
    const listingUnits = !hasListings
      ? 0
      : maxUnits === Infinity
        ? Infinity
        : listingSection(sources, Math.floor(budget / 2), listTool, Math.floor(maxUnits / 2)).units;
    const units = maxUnits === Infinity ? Infinity : maxUnits - listingUnits - open.length - close.length - 3;
    if (units >= MIN_TAIL_CHARS) {
      const text = elideProfile(escapeBlockText(sources.profile), hasListings ? Math.floor(budget / 2) : budget, units);
      const section = `${open}\n${text}\n${close}`;
      sections.push(section);
      used = estimateTokens(text);
      unitsLeft -= section.length + 1;
    }
  }
  if (!hasListings) return sections;
  const listing = listingSection(sources, Math.max(0, budget - used), listTool, unitsLeft);
  if (listing.text !== '') sections.push(listing.text);
  return sections;
}

/** `<available-memories>` with the preferences and entities folders, within `budget` tokens and `maxUnits` (its joining newline included). */
function listingSection(
  sources: ProfileSources,
  budget: number,
  listTool: string,
  maxUnits: number,
): { text: string; units: number } {
  const root = memoriesRoot(sources.space);
  const open = '<available-memories>';
  const close = '</available-memories>';
  const room = maxUnits - open.length - close.length - 3;
  // Preferences get half the room, entities the rest; one folder alone gets all of it.
  const share = sources.entities.length > 0 ? 2 : 1;
  const preferences = renderListing(
    `${root}/preferences/`,
    sources.preferences,
    Math.floor(budget / share),
    listTool,
    Math.floor(room / share),
  );
  const entities = renderListing(
    `${root}/entities/`,
    sources.entities,
    budget - preferences.tokens,
    listTool,
    room - preferences.units,
  );
  const body = [preferences.text, entities.text].filter((text) => text !== '');
  if (body.length === 0) return { text: '', units: 0 };
  const text = [open, ...body, close].join('\n');
  return { text, units: text.length + 1 };
}

function archiveSection(overview: string | undefined, budget: number, maxUnits: number): string[] {
  if (overview === undefined || overview.trim() === '') return [];
  const open = '<session-archive>\n<archive-overview>';
  const close = '</archive-overview>\n</session-archive>';
  const room = maxUnits - open.length - close.length - 2;
  if (room < MIN_TAIL_CHARS) return [];
  const clipped = clipToTokens(escapeBlockText(overview.trim()), budget);
  const text =
    clipped.length <= room
      ? clipped
      : `${clipToUnits(clipped, room - ARCHIVE_CUT_MARK.length).trimEnd()}${ARCHIVE_CUT_MARK}`;
  return [`${open}\n${text}\n${close}`];
}

/**
 * Keeps `text` within `budgetTokens` and `maxUnits` UTF-16 code units: the
 * first lines and as many last lines as fit around an elision mark; short
 * files (or a tail too small to be useful) are cut at the end instead.
 */
export function elideProfile(text: string, budgetTokens: number, maxUnits = Infinity): string {
  const tokens = estimateTokens(text);
  if (tokens <= budgetTokens && text.length <= maxUnits) return text;
  const charsPerToken = text.length / Math.max(1, tokens);
  const charBudget = Math.min(Math.max(MIN_PROFILE_CHARS, Math.floor(budgetTokens * charsPerToken)), maxUnits);
  const lines = text.split('\n');
  const head = lines.slice(0, HEAD_LINES).join('\n');
  const tailBudget = charBudget - head.length - ELIDED_MARK.length;
  if (lines.length <= SHORT_PROFILE_LINES || tailBudget < MIN_TAIL_CHARS) {
    const kept =
      maxUnits === Infinity ? text.slice(0, charBudget) : clipToUnits(text, charBudget - TRUNCATED_MARK.length);
    return `${kept.trimEnd()}${TRUNCATED_MARK}`;
  }
  const tail: string[] = [];
  let tailChars = 0;
  for (let index = lines.length - 1; index >= HEAD_LINES; index--) {
    const line = lines[index] as string;
    if (tailChars + line.length + 1 > tailBudget) break;
    tail.unshift(line);
    tailChars += line.length + 1;
  }
  return `${head}${ELIDED_MARK}${tail.join('\n')}`;
}

interface RenderedListing {
  text: string;
  tokens: number;
  /** UTF-16 code units it takes in the block, its joining newline included. */
  units: number;
}

const NO_LISTING: RenderedListing = { text: '', tokens: 0, units: 0 };

/**
 * A folder header and one line per file, within `budgetTokens` and
 * `maxUnits`; an overflow line names the list tool (`listTool`, as the
 * host or the user's own server names it) and the folder to list.
 */
export function renderListing(
  folderUri: string,
  items: readonly ListedMemory[],
  budgetTokens: number,
  listTool = asToolNames('codebuddy').name('list'),
  maxUnits = Infinity,
): RenderedListing {
  if (items.length === 0) return NO_LISTING;
  const header = escapeBlockText(folderUri);
  const room = new Room(budgetTokens, maxUnits);
  if (estimateTokens(header) > budgetTokens || header.length + 1 > maxUnits) {
    const stub = `${header} (${items.length} entries; list them with ${listTool})`;
    const tokens = estimateTokens(stub);
    return tokens <= budgetTokens && stub.length + 1 <= maxUnits
      ? { text: stub, tokens, units: stub.length + 1 }
      : NO_LISTING;
  }
  room.take(header);
  const entries = items.map(
    (item) =>
      `  - ${escapeBlockText(item.name)}${item.abstract ? ` — ${escapeBlockText(item.abstract.slice(0, 200))}` : ''}`,
  );
  // What the entries from each index on cost: once all the rest fit, no room is kept for the overflow line.
  const restTokens = suffixSums(entries.map((line) => estimateTokens(line) + 1));
  const restUnits = suffixSums(entries.map((line) => line.length + 1));
  const lines = [header];
  let shown = 0;
  for (const line of entries) {
    const restFits = room.hasRoomFor(restTokens[shown] as number, restUnits[shown] as number);
    const reserve =
      restFits || shown + 1 === items.length ? undefined : overflowLine(folderUri, items.length, listTool);
    if (!room.tryTake(line, reserve)) break;
    lines.push(line);
    shown++;
  }
  if (shown < items.length) {
    const overflow = overflowLine(folderUri, items.length - shown, listTool);
    if (room.tryTake(overflow)) lines.push(overflow);
  }
  const text = lines.join('\n');
  return { text, tokens: room.tokensUsed, units: text.length + 1 };
}
function overflowLine(folderUri: string, hidden: number, listTool: string): string {
  return `  ... +${hidden} more; list them with ${listTool} {"uri": "${escapeBlockText(folderUri)}"}`;
}

/** `sums[i]` = values[i] + … + values[last]. */
function suffixSums(values: readonly number[]): number[] {
  const sums = new Array<number>(values.length + 1).fill(0);
  for (let index = values.length - 1; index >= 0; index--)
    sums[index] = (sums[index + 1] as number) + (values[index] as number);
  return sums;
}
