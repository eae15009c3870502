/**
 * The recall block the model sees before the user's prompt: ONE
 * `<openviking-context source="recall">` tag (capture strips it), one line
 * naming the MCP tools by the names the current host gives them
 * (protocol/hostTools.ts), one line framing what follows as stored data,
 * not instructions (escape.ts), then one `<memory>`
 * element per recalled item. Every text and attribute is escaped
 * (escape.ts), so a memory cannot close or forge our tag. The block keeps
 * within `budgetTokens`: the first memory is always shown (clipped to half
 * the room if it must be), later ones shrink to their URI once the budget is spent, and
 * the rest are dropped. Where the host caps one hook answer (Claude Code,
 * DESIGN D28) it keeps within that many UTF-16 units too, frame closed.
 * Pure: same input, same bytes.
 *
 * `recalledInBlock` reads a block back (URI, type, score of each memory),
 * for the hooks module's memory card, which sees the block the shell recall
 * injected; it knows the one shape written here. A block signed by its
 * writer carries `mark="…"` (blockMark.ts), and the card counts only the
 * blocks whose mark it computes too (issue 29 item 5).
 *
 * @module
 */
import { asToolNames, deferredToolsClause } from '../protocol/hostTools.js';
import type { HostKind, ToolNames } from '../protocol/hostTools.js';
import { escapeAttribute, escapeBlockText, STORED_DATA_LINE, unescapeAttribute } from './escape.js';
import { MARK_CHARS } from './blockMark.js';
import { Room } from './room.js';
import { clipToTokens, clipToUnits, estimateTokens } from './tokens.js';
import type { RecalledItem } from './types.js';

/** The block's tool line for `tools` (a host's bundled tools, or the user's own). */
export function recallToolsLine(tools: HostKind | ToolNames): string {
  const names = asToolNames(tools);
  const read = names.name('read');
  const search = names.name('search');
  return `Relevant memory from OpenViking. Expand a URI with ${read} {"uris": "<uri>"}; search for more with ${search} {"query": "…"}. They are deferred tools: ${deferredToolsClause(names.host)}.`;
}

const OPEN_TAG = '<openviking-context source="recall">';
const CLOSE_TAG = '</openviking-context>';
/** The opening tag with a mark of `MARK_CHARS` hex digits; one in front of any other text read back. */
const OPENING = new RegExp(`<openviking-context source="recall"(?: mark="([0-9a-f]{${MARK_CHARS}})")?>`, 'g');

/** The opening tag, with `mark` when the block is signed. */
function openTag(mark: string | undefined): string {
  return mark === undefined ? OPEN_TAG : `<openviking-context source="recall" mark="${mark}">`;
}

/**
 * The block, or '' when there is nothing to show; its tool line names
 * `tools`. `maxUnits` (the host's cap on one hook answer, DESIGN D28) bounds
 * its length in UTF-16 code units as well: memories that do not fit are
 * dropped from the end (the lowest ranked) and one line says how many, and
 * how to search for them.
 */
export function renderRecallBlock(
  items: readonly RecalledItem[],
  budgetTokens: number,
  tools: HostKind | ToolNames = 'codebuddy',
  maxUnits?: number,
  sign?: (body: string) => string,
): string {
  if (items.length === 0) return '';
  const names = asToolNames(tools);
  const toolsLine = recallToolsLine(names);
  const room = new Room(budgetTokens, maxUnits);
  const opening = openTag(sign === undefined ? undefined : '0'.repeat(MARK_CHARS));
  for (const line of [opening, toolsLine, STORED_DATA_LINE, CLOSE_TAG]) room.take(line);
  // Under a cap, room stays for the line that counts what was left out.
  const reserve = maxUnits === undefined ? undefined : notShownLine(items.length, names);
  const lines: string[] = [];
  for (const item of items) {
    const full = memoryElement(item, item.text);
    if (room.tryTake(full, reserve)) {
      lines.push(full);
      continue;
    }
    if (lines.length === 0) {
      const clipped = clippedElement(item, room, items.length > 1 ? 2 : 1, reserve);
      if (clipped !== undefined) {
        lines.push(clipped);
        room.take(clipped);
        continue;
      }
    }
    const bare = memoryElement(item, '');
    if (!room.tryTake(bare, reserve)) break;
    lines.push(bare);
  }
  if (lines.length === 0) return '';
  if (maxUnits !== undefined && lines.length < items.length)
    lines.push(notShownLine(items.length - lines.length, names));
  const body = [toolsLine, STORED_DATA_LINE, ...lines].join('\n');
  return [openTag(sign?.(body)), body, CLOSE_TAG].join('\n');
}

/**
 * The first memory cut to fit: half the room when more memories follow, so
 * their URIs still fit. Undefined when not even its opening fits the units.
 */
function clippedElement(
  item: RecalledItem,
  room: Room,
  share: number,
  reserve: string | undefined,
): string | undefined {
  const opening = memoryElement(item, '');
  const tokens = Math.max(0, Math.floor((room.tokensLeft - estimateTokens(opening) - 8) / share));
  const reserved = reserve === undefined ? 0 : reserve.length + 1;
  const units = Math.floor((room.unitsLeft - reserved - opening.length - 32) / share);
  if (units <= 0) return undefined;
  const text = clipToTokens(escapeBlockText(item.text), tokens);
  return memoryElement(item, `${clipToUnits(text, units)}…`, true);
}

/** The line that says how many memories a capped block left out. */
function notShownLine(count: number, tools: ToolNames): string {
  return `(${count} more memories not shown here; search for them with ${tools.name('search')} {"query": "…"}.)`;
}

/** A memory as the block names it: what `recalledInBlock` reads back. */
export interface BlockMemory {
  uri: string;
  category?: string;
  score?: number;
}

/** The start of a memory element: one at the start of a line of a block (recalled text cannot open one: escape.ts). */
const MEMORY_OPENING = /^<memory ((?:[a-z]+="[^"]*" ?)+)\/?>/gm;
const ATTRIBUTE = /([a-z]+)="([^"]*)"/g;

/**
 * The memories of every recall block in `text` (an `additionalContext` entry,
 * or several joined), in order, of the blocks `accept` takes (by their mark,
 * undefined for an unsigned block, and their body: what follows the opening
 * tag); none when it holds no block of ours.
 */
export function recalledInBlock(
  text: string,
  accept: (mark: string | undefined, body: string) => boolean = () => true,
): BlockMemory[] {
  const found: BlockMemory[] = [];
  for (const open of text.matchAll(OPENING)) {
    const start = (open.index ?? 0) + open[0].length + 1;
    const end = text.indexOf(CLOSE_TAG, start);
    const block = text.slice(start, end === -1 ? undefined : end);
    if (!accept(open[1], block.replace(/\n$/, ''))) continue;
    for (const opening of block.matchAll(MEMORY_OPENING)) {
      const attributes = new Map(
        [...(opening[1] ?? '').matchAll(ATTRIBUTE)].map((m) => [m[1] ?? '', unescapeAttribute(m[2] ?? '')]),
      );
      const uri = attributes.get('uri');
      if (uri === undefined || uri === '') continue;
      const score = Number(attributes.get('score'));
      const category = attributes.get('type');
      found.push({
        uri,
        ...(category ? { category } : {}),
        ...(attributes.has('score') && Number.isFinite(score) ? { score } : {}),
      });
    }
  }
  return found;
}

/** `<memory uri=… type=… score=…>text</memory>`, self-closing without text. */
function memoryElement(item: RecalledItem, text: string, escaped = false): string {
  const attributes = [`uri="${escapeAttribute(item.uri)}"`];
  if (item.category) attributes.push(`type="${escapeAttribute(item.category)}"`);
  if (item.score !== undefined && Number.isFinite(item.score)) attributes.push(`score="${item.score.toFixed(2)}"`);
  const body = text.trim();
  if (body === '') return `<memory ${attributes.join(' ')}/>`;
  return `<memory ${attributes.join(' ')}>\n${escaped ? body : escapeBlockText(body)}\n</memory>`;
}
