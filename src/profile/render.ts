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
import { deferredToolsClause, mcpToolName } from '../protocol/hostTools.js';
import type { HostKind } from '../protocol/hostTools.js';
import { escapeAttribute, escapeBlockText, STORED_DATA_LINE } from '../recall/escape.js';
import { clipToTokens, estimateTokens } from '../recall/tokens.js';
import type { ListedMemory, ProfileSources } from './fetch.js';
import { memoriesRoot } from './fetch.js';

export interface StartBlockInput {
  /** The hook's `source` (`startup`, `resume`, `clear`, `compact`). */
  source: string;
  profile?: ProfileSources;
  archiveOverview?: string;
  /** Whose tool names the hints use; default CodeBuddy. */
  host?: HostKind;
}

export interface StartBlockBudgets {
  /** Profile + listings. */
  profileTokens: number;
  /** The archive overview. */
  archiveTokens: number;
}

/** The block's tool line on `host`. */
export function startToolsLine(host: HostKind): string {
  return `Long-term memory from OpenViking. Read a memory with ${mcpToolName(host, 'read')} {"uris": "<uri>"}, list a folder with ${mcpToolName(host, 'list')} {"uri": "<folder>"}; they are deferred tools: ${deferredToolsClause(host)}.`;
}

const ELIDED_MARK = '\n... [profile middle elided] ...\n';
const TRUNCATED_MARK = '\n... [profile truncated]';
/** Files this short are cut at the end rather than in the middle. */
const SHORT_PROFILE_LINES = 12;
const HEAD_LINES = 8;
const MIN_TAIL_CHARS = 200;
const MIN_PROFILE_CHARS = 400;

/** The block, or '' when there is nothing to show. */
export function renderStartBlock(input: StartBlockInput, budgets: StartBlockBudgets): string {
  const host = input.host ?? 'codebuddy';
  const sections = [...profileSections(input.profile, budgets.profileTokens, mcpToolName(host, 'list')), ...archiveSection(input.archiveOverview, budgets.archiveTokens)];
  if (sections.length === 0) return '';
  return [`<openviking-context source="${escapeAttribute(input.source)}">`, startToolsLine(host), STORED_DATA_LINE, ...sections, '</openviking-context>'].join('\n');
}

function profileSections(sources: ProfileSources | undefined, budget: number, listTool: string): string[] {
  if (sources === undefined) return [];
  const hasListings = sources.preferences.length + sources.entities.length > 0;
  const sections: string[] = [];
  let used = 0;
  if (sources.profile !== undefined) {
    const uri = `${memoriesRoot(sources.space)}/profile.md`;
    const text = elideProfile(escapeBlockText(sources.profile), hasListings ? Math.floor(budget / 2) : budget);
    sections.push(`<user-profile uri="${escapeAttribute(uri)}">\n${text}\n</user-profile>`);
    used = estimateTokens(text);
  }
  if (!hasListings) return sections;
  const listingBudget = Math.max(0, budget - used);
  const root = memoriesRoot(sources.space);
  const preferences = renderListing(`${root}/preferences/`, sources.preferences, Math.floor(listingBudget / 2), listTool);
  const entities = renderListing(`${root}/entities/`, sources.entities, listingBudget - preferences.tokens, listTool);
  const body = [preferences.text, entities.text].filter((text) => text !== '');
  if (body.length > 0) sections.push(['<available-memories>', ...body, '</available-memories>'].join('\n'));
  return sections;
}

function archiveSection(overview: string | undefined, budget: number): string[] {
  if (overview === undefined || overview.trim() === '') return [];
  const text = clipToTokens(escapeBlockText(overview.trim()), budget);
  return [`<session-archive>\n<archive-overview>\n${text}\n</archive-overview>\n</session-archive>`];
}

/**
 * Keeps `text` within `budgetTokens`: the first lines and as many last
 * lines as fit around an elision mark; short files (or a tail too small to
 * be useful) are cut at the end instead.
 */
export function elideProfile(text: string, budgetTokens: number): string {
  const tokens = estimateTokens(text);
  if (tokens <= budgetTokens) return text;
  const charsPerToken = text.length / Math.max(1, tokens);
  const charBudget = Math.max(MIN_PROFILE_CHARS, Math.floor(budgetTokens * charsPerToken));
  const lines = text.split('\n');
  const head = lines.slice(0, HEAD_LINES).join('\n');
  const tailBudget = charBudget - head.length - ELIDED_MARK.length;
  if (lines.length <= SHORT_PROFILE_LINES || tailBudget < MIN_TAIL_CHARS) return `${text.slice(0, charBudget).trimEnd()}${TRUNCATED_MARK}`;
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
}

/** A folder header and one line per file, within `budgetTokens`; an overflow line names the list tool (`listTool`, the host's name). */
export function renderListing(folderUri: string, items: readonly ListedMemory[], budgetTokens: number, listTool = mcpToolName('codebuddy', 'list')): RenderedListing {
  if (items.length === 0) return { text: '', tokens: 0 };
  const header = escapeBlockText(folderUri);
  if (estimateTokens(header) > budgetTokens) {
    const stub = `${header} (${items.length} entries; list them with ${listTool})`;
    const tokens = estimateTokens(stub);
    return tokens <= budgetTokens ? { text: stub, tokens } : { text: '', tokens: 0 };
  }
  const lines = [header];
  let used = estimateTokens(header) + 1;
  let shown = 0;
  for (const item of items) {
    const line = `  - ${escapeBlockText(item.name)}${item.abstract ? ` — ${escapeBlockText(item.abstract.slice(0, 200))}` : ''}`;
    const cost = estimateTokens(line) + 1;
    const reserve = shown + 1 < items.length ? estimateTokens(overflowLine(folderUri, items.length, listTool)) + 1 : 0;
    if (used + cost + reserve > budgetTokens) break;
    lines.push(line);
    used += cost;
    shown++;
  }
  if (shown < items.length) {
    const overflow = overflowLine(folderUri, items.length - shown, listTool);
    const cost = estimateTokens(overflow) + 1;
    if (used + cost <= budgetTokens) {
      lines.push(overflow);
      used += cost;
    }
  }
  return { text: lines.join('\n'), tokens: used };
}

function overflowLine(folderUri: string, hidden: number, listTool: string): string {
  return `  ... +${hidden} more; list them with ${listTool} {"uri": "${escapeBlockText(folderUri)}"}`;
}
