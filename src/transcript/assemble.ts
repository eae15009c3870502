/**
 * Turns the event stream of either transcript format into OpenViking
 * messages. One user record is one user message; one model response (its
 * text and its tool calls, each call completed by its result) is one
 * assistant message, so tool activity stays with the step that caused it.
 *
 * A step whose call has no result yet (the host writes results after
 * PostToolUse) is held back together with everything after it, and the
 * caller learns how many leading records were consumed. A call counts as
 * abandoned, not pending, once the conversation has moved past it; it is then
 * emitted with status `error` so one lost result cannot stall capture forever.
 *
 * @module
 */
import type { MessagePart } from '../openviking/types.js';
import type { DecodeResult, DecodedMessage, TranscriptEvent } from './types.js';
import { fnv1a } from './fingerprint.js';

type ToolPart = Extract<MessagePart, { type: 'tool' }>;

interface Draft {
  role: 'user' | 'assistant';
  stepKey?: string;
  parts: MessagePart[];
  firstIndex: number;
  lastIndex: number;
  sourceIds: string[];
  firstId: string;
  timestamp?: string;
  /** Calls of this step still waiting for a result. */
  pending: Set<ToolPart>;
}

interface OpenCall {
  draft: Draft;
  part: ToolPart;
}

function newDraft(role: Draft['role'], event: TranscriptEvent, stepKey?: string): Draft {
  const draft: Draft = {
    role,
    parts: [],
    firstIndex: event.index,
    lastIndex: event.index,
    sourceIds: [],
    firstId: event.id,
    pending: new Set(),
  };
  if (stepKey !== undefined) draft.stepKey = stepKey;
  if (event.timestamp !== undefined) draft.timestamp = event.timestamp;
  return draft;
}

function touch(draft: Draft, event: TranscriptEvent): void {
  if (event.id !== '' && draft.sourceIds[draft.sourceIds.length - 1] !== event.id) draft.sourceIds.push(event.id);
  if (event.index > draft.lastIndex) draft.lastIndex = event.index;
}

function textParts(texts: readonly string[]): MessagePart[] {
  return texts.map((text) => ({ type: 'text', text }));
}

/** Builds drafts in file order and pairs results with their calls. */
class Assembler {
  readonly drafts: Draft[] = [];
  private step: Draft | undefined;
  private readonly openCalls = new Map<string, OpenCall>();

  add(event: TranscriptEvent): void {
    switch (event.kind) {
      case 'user-text': {
        this.moveOn();
        const draft = newDraft('user', event);
        draft.parts.push(...textParts(event.texts));
        this.push(draft, event);
        return;
      }
      case 'moved-on':
        this.moveOn();
        return;
      case 'assistant-text':
        this.stepFor(event, event.stepKey).parts.push(...textParts(event.texts));
        return;
      case 'tool-call': {
        const draft = this.stepFor(event, event.stepKey);
        const part: ToolPart = { type: 'tool', tool_id: event.callId, tool_name: event.name, tool_input: event.input };
        draft.parts.push(part);
        draft.pending.add(part);
        if (event.callId !== '') this.openCalls.set(event.callId, { draft, part });
        return;
      }
      case 'tool-result':
        this.resolve(event);
        return;
    }
  }

  private push(draft: Draft, event: TranscriptEvent): void {
    touch(draft, event);
    this.drafts.push(draft);
  }

  /** The open step when the event belongs to it, else a new step (which abandons the old one's open calls). */
  private stepFor(event: TranscriptEvent, stepKey: string): Draft {
    if (this.step !== undefined && this.step.stepKey === stepKey) {
      touch(this.step, event);
      return this.step;
    }
    this.moveOn();
    const draft = newDraft('assistant', event, stepKey);
    this.push(draft, event);
    this.step = draft;
    return draft;
  }

  /** The conversation went on: the open step is closed and its unanswered calls count as failed. */
  private moveOn(): void {
    for (const { draft, part } of this.openCalls.values()) {
      part.tool_status = 'error';
      draft.pending.delete(part);
    }
    this.openCalls.clear();
    this.step = undefined;
  }

  private resolve(event: Extract<TranscriptEvent, { kind: 'tool-result' }>): void {
    const open = this.openCalls.get(event.callId);
    const status = event.isError ? 'error' : 'completed';
    if (open === undefined) {
      // A result whose call was never seen (or already answered): keep it as its own step.
      const draft = newDraft('assistant', event);
      const part: ToolPart = { type: 'tool', tool_id: event.callId, tool_output: event.output, tool_status: status };
      if (event.name !== undefined) part.tool_name = event.name;
      draft.parts.push(part);
      this.push(draft, event);
      return;
    }
    this.openCalls.delete(event.callId);
    open.part.tool_output = event.output;
    open.part.tool_status = status;
    open.draft.pending.delete(open.part);
    touch(open.draft, event);
  }
}

/** First record index that must be decoded again: the earliest unfinished step, widened so no emitted message reaches past it. */
function holdIndex(drafts: readonly Draft[], recordCount: number): number {
  let hold = recordCount;
  for (const draft of drafts) if (draft.pending.size > 0 && draft.firstIndex < hold) hold = draft.firstIndex;
  for (let changed = hold < recordCount; changed;) {
    changed = false;
    for (const draft of drafts) {
      if (draft.firstIndex < hold && draft.lastIndex >= hold) {
        hold = draft.firstIndex;
        changed = true;
      }
    }
  }
  return hold;
}

function recordIdOf(draft: Draft): string {
  const id = draft.firstId !== '' ? draft.firstId : `noid-${fnv1a(JSON.stringify(draft.parts))}`;
  return draft.timestamp === undefined ? id : `${id}@${draft.timestamp}`;
}

function toMessage(draft: Draft): DecodedMessage {
  const message: DecodedMessage = {
    role: draft.role,
    parts: draft.parts,
    recordId: recordIdOf(draft),
    sourceIds: draft.sourceIds,
  };
  if (draft.timestamp !== undefined) message.created_at = draft.timestamp;
  return message;
}

/** Messages for all complete steps among `recordCount` records, and how many records they consumed. */
export function assembleMessages(events: Iterable<TranscriptEvent>, recordCount: number): DecodeResult {
  const assembler = new Assembler();
  for (const event of events) assembler.add(event);
  const consumed = holdIndex(assembler.drafts, recordCount);
  const messages = assembler.drafts
    .filter((draft) => draft.firstIndex < consumed && draft.parts.length > 0)
    .map(toMessage);
  return { messages, consumed };
}
