/**
 * Tool call inputs and outputs as both hosts store them, turned into the
 * shapes of an OpenViking `tool` part: an input object and an output string.
 *
 * @module
 */
import { isRecord, parseJson } from '../util/json.js';

/**
 * The input object of a call. CodeBuddy stores `arguments` as a JSON string;
 * a string that is not a JSON object is kept as `{ raw_arguments }` so nothing
 * is lost, and a JSON non-object becomes `{ value }`.
 */
export function toolInputFrom(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return { value };
  if (value.trim() === '') return null;
  const parsed = parseJson(value);
  if (parsed === undefined) return { raw_arguments: value }; // malformed JSON (e.g. a truncated call): keep the text
  return isRecord(parsed) ? parsed : { value: parsed };
}

/** Joins the `text` of `[{type:'text', text}]` blocks; undefined when any block is not text. */
function textOfBlocks(blocks: readonly unknown[]): string | undefined {
  const texts: string[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) return undefined;
    if (block.type !== 'text' || typeof block.text !== 'string') return undefined;
    texts.push(block.text);
  }
  return texts.join('\n');
}

/**
 * `[{"type":"text","text":"…"}]` serialised into a string (MCP results on
 * CodeBuddy) → the joined text. Any other string is returned unchanged.
 */
function unwrapSerialisedBlocks(text: string): string {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('[{')) return text;
  const parsed = parseJson(trimmed); // undefined: it only looked like serialised blocks
  if (!Array.isArray(parsed) || parsed.length === 0) return text;
  return textOfBlocks(parsed) ?? text;
}

/**
 * The text of a tool result: a string, `{type:'text', text}`, or an array of
 * content blocks (text joined with newlines, images and other blocks left out).
 * Other values are serialised as JSON.
 */
export function toolOutputText(value: unknown): string {
  if (typeof value === 'string') return unwrapSerialisedBlocks(value);
  if (value === undefined || value === null) return '';
  if (isRecord(value) && typeof value.text === 'string') return unwrapSerialisedBlocks(value.text);
  if (Array.isArray(value)) {
    const texts: string[] = [];
    for (const block of value) {
      if (typeof block === 'string') texts.push(block);
      else if (isRecord(block) && typeof block.text === 'string') texts.push(block.text);
    }
    return texts.join('\n');
  }
  try {
    return JSON.stringify(value);
  } catch {
    return String(value); // a cycle cannot come from JSON, but stay total
  }
}
