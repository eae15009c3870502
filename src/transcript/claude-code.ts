/**
 * Claude Code transcript records → transcript events.
 *
 * Records are `{type:'user'|'assistant', uuid, parentUuid, timestamp,
 * isSidechain, message:{role, content}}`; `content` is a string or blocks
 * (`text`, `tool_use`, `tool_result`, `thinking`, `image`). One API response is
 * written as several assistant records sharing `message.id`, and tool results
 * come back as user records holding `tool_result` blocks.
 *
 * Dropped: `thinking`/`redacted_thinking` and images; `summary`, `system`,
 * `file-history-snapshot` and other record types; user records the host wrote
 * (`isMeta` caveats and skill bodies, `isCompactSummary` continuation
 * summaries, `isVisibleInTranscriptOnly`, and on 2.1.328 the
 * `<task-notification>` turn that reports a background sub-agent's end,
 * marked `origin.kind: "task-notification"`), synthetic assistant records
 * (`isApiErrorMessage`, model `<synthetic>`), and sub-agent (`isSidechain`)
 * records unless the caller reads a sub-agent file.
 *
 * @module
 */
import type { EventBase, TranscriptEvent } from './types.js';
import { isoTimestamp, objectField, stringField } from './narrow.js';
import { claudeCodeUserText } from './host-text.js';
import { toolInputFrom, toolOutputText } from './tool-io.js';
import { isRecord } from '../util/json.js';
import type { JsonRecord } from '../util/json.js';

export interface ClaudeCodeDecodeOptions {
  /** Keep `isSidechain` records: true when decoding a sub-agent transcript, where every record is one. */
  includeSidechain?: boolean;
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** User records the host wrote that carry an `origin` saying so (the typed prompt has none). */
const HOST_ORIGINS = new Set(['task-notification']);

function isHostWritten(record: JsonRecord): boolean {
  if (record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true)
    return true;
  const kind = objectField(record, 'origin')?.kind;
  return typeof kind === 'string' && HOST_ORIGINS.has(kind);
}

function* userEvents(record: JsonRecord, message: JsonRecord, base: EventBase): Generator<TranscriptEvent> {
  if (isHostWritten(record)) {
    yield { ...base, kind: 'moved-on' };
    return;
  }
  const texts: string[] = [];
  for (const block of blocksOf(message.content)) {
    if (!isRecord(block)) continue;
    if (block.type === 'tool_result') {
      yield {
        ...base,
        kind: 'tool-result',
        callId: stringField(block, 'tool_use_id') ?? '',
        output: toolOutputText(block.content),
        isError: block.is_error === true,
      };
    } else if (block.type === 'text' && typeof block.text === 'string') {
      const text = claudeCodeUserText(block.text);
      if (text !== '') texts.push(text);
    }
  }
  if (texts.length > 0) yield { ...base, kind: 'user-text', texts };
}

function* assistantEvents(record: JsonRecord, message: JsonRecord, base: EventBase): Generator<TranscriptEvent> {
  if (record.isApiErrorMessage === true || message.model === '<synthetic>') {
    yield { ...base, kind: 'moved-on' };
    return;
  }
  const stepKey = stringField(message, 'id') ?? base.id;
  const texts: string[] = [];
  for (const block of blocksOf(message.content)) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') texts.push(block.text);
    else if (block.type === 'tool_use') {
      if (texts.length > 0) yield { ...base, kind: 'assistant-text', stepKey, texts: texts.splice(0) };
      yield {
        ...base,
        kind: 'tool-call',
        stepKey,
        callId: stringField(block, 'id') ?? '',
        name: stringField(block, 'name') ?? '',
        input: toolInputFrom(block.input),
      };
    }
  }
  if (texts.length > 0) yield { ...base, kind: 'assistant-text', stepKey, texts };
}

/** Events for Claude Code records, in file order. */
export function* claudeCodeEvents(
  records: readonly unknown[],
  options: ClaudeCodeDecodeOptions = {},
): Generator<TranscriptEvent> {
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    if (!isRecord(record) || (record.type !== 'user' && record.type !== 'assistant')) continue;
    if (record.isSidechain === true && options.includeSidechain !== true) continue;
    const message = objectField(record, 'message');
    if (message === undefined) continue;
    const base: EventBase = { index, id: stringField(record, 'uuid') ?? '' };
    const timestamp = isoTimestamp(record.timestamp);
    if (timestamp !== undefined) base.timestamp = timestamp;
    yield* record.type === 'user' ? userEvents(record, message, base) : assistantEvents(record, message, base);
  }
}
