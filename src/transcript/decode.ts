/**
 * Public entry of the transcript decoders (pure): records in, OpenViking
 * messages out, for either host format. The output is raw; run it through
 * privacy.ts `sanitizeMessages` before it leaves the machine.
 *
 * @module
 */
import type { DecodeResult, TranscriptFormat } from './types.js';
import { assembleMessages } from './assemble.js';
import { claudeCodeEvents, type ClaudeCodeDecodeOptions } from './claude-code.js';
import { codeBuddyEvents } from './codebuddy.js';
import { isRecord } from '../util/json.js';

/** Decodes CodeBuddy records (one parsed JSONL line each). */
export function decodeCodeBuddyRecords(records: readonly unknown[]): DecodeResult {
  return assembleMessages(codeBuddyEvents(records), records.length);
}

/** Decodes Claude Code records (one parsed JSONL line each). */
export function decodeClaudeCodeRecords(
  records: readonly unknown[],
  options: ClaudeCodeDecodeOptions = {},
): DecodeResult {
  return assembleMessages(claudeCodeEvents(records, options), records.length);
}

const CODEBUDDY_TYPES = new Set(['message', 'function_call', 'function_call_result', 'reasoning', 'turn-metrics']);

/**
 * Which format the records are in, judged by the first record that tells:
 * CodeBuddy records have a top-level `type` of `message`/`function_call`/…;
 * Claude Code records have `type` `user`/`assistant` with a `message` object.
 * Records both formats share (`file-history-snapshot`, `summary`) are skipped.
 * Undefined when no record tells.
 */
export function detectTranscriptFormat(records: readonly unknown[]): TranscriptFormat | undefined {
  for (const record of records) {
    if (!isRecord(record) || typeof record.type !== 'string') continue;
    if (CODEBUDDY_TYPES.has(record.type)) return 'codebuddy';
    if ((record.type === 'user' || record.type === 'assistant') && isRecord(record.message)) return 'claude-code';
  }
  return undefined;
}

export interface DecodeTranscriptOptions extends ClaudeCodeDecodeOptions {
  /** Skip detection (e.g. the format is already known from an earlier read of the same file). */
  format?: TranscriptFormat;
}

/**
 * Decodes records of either format. Records whose format cannot be told
 * decode to nothing and are all consumed.
 */
export function decodeTranscriptRecords(
  records: readonly unknown[],
  options: DecodeTranscriptOptions = {},
): DecodeResult & { format: TranscriptFormat | undefined } {
  const format = options.format ?? detectTranscriptFormat(records);
  if (format === 'codebuddy') return { ...decodeCodeBuddyRecords(records), format };
  if (format === 'claude-code') return { ...decodeClaudeCodeRecords(records, options), format };
  return { messages: [], consumed: records.length, format };
}
