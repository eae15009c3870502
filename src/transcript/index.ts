/**
 * The transcript layer's public surface: read new lines incrementally
 * (reader.ts), decode them into OpenViking messages (decode.ts), and filter
 * them before they leave the machine (privacy.ts). Explicit named exports only.
 *
 * @module
 */
export {
  decodeClaudeCodeRecords,
  decodeCodeBuddyRecords,
  decodeTranscriptRecords,
  detectTranscriptFormat,
} from './decode.js';
export type { DecodeTranscriptOptions } from './decode.js';
export type { ClaudeCodeDecodeOptions } from './claude-code.js';
export type { DecodeResult, DecodedMessage, TranscriptFormat } from './types.js';
export {
  DEFAULT_MAX_CHARS,
  capText,
  sanitizeMessage,
  sanitizeMessages,
  sanitizeParts,
  sanitizeText,
  sanitizeToolInput,
  stripInjectedBlocks,
  stripPrivateBlocks,
} from './privacy.js';
export type { PrivacyOptions } from './privacy.js';
export { redactSecrets } from './secrets.js';
export { cursorAfterRecords, cursorAtEnd, readTranscriptTail } from './reader.js';
export type {
  ReadTranscriptOptions,
  ReadableFile,
  RecordSpan,
  RescanReason,
  TranscriptCursor,
  TranscriptRead,
} from './reader.js';
