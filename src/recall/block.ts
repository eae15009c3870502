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
 * the rest are dropped. Pure: same input, same bytes.
 *
 * `recalledInBlock` reads a block back (URI, type, score of each memory),
 * for the hooks module's memory card, which sees the block the shell recall
 * injected; it knows the one shape written here.
 *
 * @module
 */
import { deferredToolsClause, mcpToolName } from '../protocol/hostTools.js';
import type { HostKind } from '../protocol/hostTools.js';
import { escapeAttribute, escapeBlockText, STORED_DATA_LINE, unescapeAttribute } from './escape.js';
import { clipToTokens, estimateTokens } from './tokens.js';
import type { RecalledItem } from './types.js';

/** The block's tool line on `host`. */
export function recallToolsLine(host: HostKind): string {
  const read = mcpToolName(host, 'read');
  const search = mcpToolName(host, 'search');
  return `Relevant memory from OpenViking. Expand a URI with ${read} {"uris": "<uri>"}; search for more with ${search} {"query": "…"}. They are deferred tools: ${deferredToolsClause(host)}.`;
}

const OPEN_TAG = '<openviking-context source="recall">';
const CLOSE_TAG = '</openviking-context>';

/** The block, or '' when there is nothing to show; its tool line names `host`'s tools. */
export function renderRecallBlock(items: readonly RecalledItem[], budgetTokens: number, host: HostKind = 'codebuddy'): string {
  if (items.length === 0) return '';
  const toolsLine = recallToolsLine(host);
  const frame = [OPEN_TAG, toolsLine, STORED_DATA_LINE, CLOSE_TAG];
  let used = frame.reduce((sum, line) => sum + estimateTokens(line) + 1, 0);
  const lines: string[] = [];
  for (const item of items) {
    const full = memoryElement(item, item.text);
    const fullCost = estimateTokens(full) + 1;
    if (used + fullCost <= budgetTokens) {
      lines.push(full);
      used += fullCost;
      continue;
    }
    if (lines.length === 0) {
      const opening = memoryElement(item, '');
      // Half the room when more memories follow, so their URIs still fit.
      const room = Math.max(0, Math.floor((budgetTokens - used - estimateTokens(opening) - 8) / (items.length > 1 ? 2 : 1)));
      const clipped = memoryElement(item, `${clipToTokens(escapeBlockText(item.text), room)}…`, true);
      lines.push(clipped);
      used += estimateTokens(clipped) + 1;
      continue;
    }
    const bare = memoryElement(item, '');
    const bareCost = estimateTokens(bare) + 1;
    if (used + bareCost > budgetTokens) break;
    lines.push(bare);
    used += bareCost;
  }
  return [OPEN_TAG, toolsLine, STORED_DATA_LINE, ...lines, CLOSE_TAG].join('\n');
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
 * or several joined), in order; none when it holds no block of ours.
 */
export function recalledInBlock(text: string): BlockMemory[] {
  const found: BlockMemory[] = [];
  let from = text.indexOf(OPEN_TAG);
  while (from !== -1) {
    const end = text.indexOf(CLOSE_TAG, from);
    const block = text.slice(from, end === -1 ? undefined : end);
    for (const opening of block.matchAll(MEMORY_OPENING)) {
      const attributes = new Map([...(opening[1] ?? '').matchAll(ATTRIBUTE)].map((m) => [m[1] ?? '', unescapeAttribute(m[2] ?? '')]));
      const uri = attributes.get('uri');
      if (uri === undefined || uri === '') continue;
      const score = Number(attributes.get('score'));
      const category = attributes.get('type');
      found.push({ uri, ...(category ? { category } : {}), ...(attributes.has('score') && Number.isFinite(score) ? { score } : {}) });
    }
    from = end === -1 ? -1 : text.indexOf(OPEN_TAG, end);
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
