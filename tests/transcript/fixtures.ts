/**
 * Test helpers: load transcript fixtures and build expected messages tersely.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePart } from '../../src/openviking/types.js';
import type { DecodedMessage } from '../../src/transcript/types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

/** Parsed records of `tests/fixtures/transcripts/<relative>`. */
export function loadRecords(relative: string): unknown[] {
  return readFileSync(FIXTURES + relative, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** CodeBuddy stores epoch milliseconds; messages carry ISO strings. */
export function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function message(
  role: 'user' | 'assistant',
  ids: string[],
  timestamp: string,
  parts: MessagePart[],
): DecodedMessage {
  return { role, parts, recordId: `${ids[0]}@${timestamp}`, sourceIds: ids, created_at: timestamp };
}

export function text(value: string): MessagePart {
  return { type: 'text', text: value };
}

/** A completed or failed tool part as the decoders emit it. */
export function tool(
  id: string,
  name: string,
  input: Record<string, unknown>,
  output: string,
  status: 'completed' | 'error' = 'completed',
): MessagePart {
  return { type: 'tool', tool_id: id, tool_name: name, tool_input: input, tool_output: output, tool_status: status };
}

/** A prompt and its one-text answer, each from one record. */
export function exchange(
  prompt: [id: string, at: string, text: string],
  answer: [id: string, at: string, text: string],
) {
  return [
    message('user', [prompt[0]], prompt[1], [text(prompt[2])]),
    message('assistant', [answer[0]], answer[1], [text(answer[2])]),
  ];
}
