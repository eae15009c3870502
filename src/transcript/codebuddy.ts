/**
 * CodeBuddy transcript records → transcript events.
 *
 * Records (codebuddy-host README §5): `message` with a top-level `role` and
 * `input_text`/`output_text` parts; `function_call` (`callId`, `name`,
 * `arguments` as a JSON string); `function_call_result` (`callId`, `status`,
 * `output: {type:'text', text}`, and `providerData.toolResult.error` when the
 * call failed or a hook denied it: the status still says `completed`).
 * `reasoning`, `file-history-snapshot`, `summary`, `turn-metrics`, `ai-title`
 * and unknown types carry nothing worth remembering and are skipped.
 *
 * Host-authored user records are dropped, because the turns they stand for
 * were already captured or were never the user's words:
 * - compaction: the `<conversation_history_summary>` record and the
 *   "Please continue…" record (`providerData.isCompactInternal`, `isSummary`,
 *   `isCompacted`; both linked by `logicalParentId` and without `parentId`),
 *   and the manual `/compact` prompt and its answer (`providerData.agent:
 *   'compact'`). Storing the summary would duplicate, in the host's words,
 *   what the original turns already gave the server;
 * - `providerData.isMeta` (Stop-hook feedback injected as a prompt) and
 *   `providerData.skipRun` (slash commands).
 * The assistant's answer to such a record is real model output and is kept,
 * except the compaction summary itself.
 *
 * `DeferExecuteTool` (how CodeBuddy calls deferred MCP tools) is recorded
 * under the inner tool's name and parameters, which is what the call did.
 *
 * @module
 */
import type { EventBase, TranscriptEvent } from './types.js';
import { isoTimestamp, objectField, stringField } from './narrow.js';
import { codeBuddyUserText } from './host-text.js';
import { toolInputFrom, toolOutputText } from './tool-io.js';
import { isRecord } from '../util/json.js';
import type { JsonRecord } from '../util/json.js';

const TEXT_PART_TYPES = new Set(['input_text', 'output_text', 'text']);

function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const part of content) {
    if (isRecord(part) && TEXT_PART_TYPES.has(String(part.type)) && typeof part.text === 'string')
      texts.push(part.text);
  }
  return texts;
}

function isHostAuthored(record: JsonRecord): boolean {
  const meta = objectField(record, 'providerData');
  if (meta !== undefined) {
    const flags = ['isMeta', 'skipRun', 'isCompactInternal', 'isSummary', 'isCompacted'];
    if (flags.some((flag) => meta[flag] === true)) return true;
    if (meta.agent === 'compact') return true;
  }
  return record.logicalParentId !== undefined && record.parentId === undefined && record.role === 'user';
}

/** The model response a record belongs to: calls and text of one response share it. */
function stepKeyOf(record: JsonRecord, id: string): string {
  return stringField(objectField(record, 'providerData') ?? {}, 'messageId') ?? id;
}

function messageEvent(record: JsonRecord, base: EventBase): TranscriptEvent | undefined {
  const role = record.role;
  if ((role !== 'user' && role !== 'assistant') || isHostAuthored(record)) return { ...base, kind: 'moved-on' };
  const raw = contentTexts(record.content);
  const texts = (role === 'user' ? raw.map(codeBuddyUserText) : raw).filter((text) => text.trim() !== '');
  // An empty assistant record may sit inside a step (between its calls); only an empty prompt moves on.
  if (texts.length === 0) return role === 'user' ? { ...base, kind: 'moved-on' } : undefined;
  return role === 'user'
    ? { ...base, kind: 'user-text', texts }
    : { ...base, kind: 'assistant-text', stepKey: stepKeyOf(record, base.id), texts };
}

function callEvent(record: JsonRecord, base: EventBase): TranscriptEvent {
  let name = stringField(record, 'name') ?? '';
  let input = toolInputFrom(record.arguments);
  if (name === 'DeferExecuteTool' && input !== null && typeof input.toolName === 'string') {
    name = input.toolName;
    input = isRecord(input.params) ? input.params : null;
  }
  return {
    ...base,
    kind: 'tool-call',
    stepKey: stepKeyOf(record, base.id),
    callId: stringField(record, 'callId') ?? '',
    name,
    input,
  };
}

function resultEvent(record: JsonRecord, base: EventBase): TranscriptEvent {
  const toolResult = objectField(objectField(record, 'providerData') ?? {}, 'toolResult');
  const status = stringField(record, 'status');
  const failed =
    (status !== undefined && status !== 'completed' && status !== 'success') || toolResult?.error !== undefined;
  const event: TranscriptEvent = {
    ...base,
    kind: 'tool-result',
    callId: stringField(record, 'callId') ?? '',
    output: toolOutputText(record.output ?? toolResult?.content),
    isError: failed,
  };
  const name = stringField(record, 'name');
  if (name !== undefined && name !== 'DeferExecuteTool') event.name = name;
  return event;
}

function eventOf(record: unknown, index: number): TranscriptEvent | undefined {
  if (!isRecord(record)) return undefined;
  const base: EventBase = { index, id: stringField(record, 'id') ?? '' };
  const timestamp = isoTimestamp(record.timestamp);
  if (timestamp !== undefined) base.timestamp = timestamp;
  switch (record.type) {
    case 'message':
      return messageEvent(record, base);
    case 'function_call':
      return callEvent(record, base);
    case 'function_call_result':
      return resultEvent(record, base);
    default:
      return undefined;
  }
}

/** Events for CodeBuddy records, in file order. */
export function* codeBuddyEvents(records: readonly unknown[]): Generator<TranscriptEvent> {
  for (let index = 0; index < records.length; index++) {
    const event = eventOf(records[index], index);
    if (event !== undefined) yield event;
  }
}
