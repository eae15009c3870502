/**
 * The privacy filter every byte of user text passes before it leaves the
 * machine (DESIGN D17): captured messages, recall queries on every tier
 * (recall/skip.ts builds them with {@link outboundQuery}), and what the MCP
 * proxy writes for the model (mcp/outbound.ts). Injected context is removed
 * (our own recall block must never be stored as if the user had said it),
 * `<private>` sections are dropped, secrets are redacted, and oversized text
 * is capped. Pure; linear in the input size.
 *
 * @module
 */
import type { MessagePart, SessionMessage } from '../openviking/types.js';
import { createTagBlockStripper } from './tag-blocks.js';
import { redactionMarker, withoutMarkers } from './redactionMarker.js';
import { redactSecrets, secretKindForKey } from './secrets.js';

/** The server's own guard; it externalises tool output above 20 000 chars itself. */
export const DEFAULT_MAX_CHARS = 1_000_000;

/** Nesting deeper than this inside a tool input is replaced by a marker (no unbounded recursion). */
const MAX_INPUT_DEPTH = 32;

export interface PrivacyOptions {
  /** Cap for each text part and each string inside a tool input. Default {@link DEFAULT_MAX_CHARS}. */
  maxTextChars?: number;
  /** Cap for each tool output (settings `captureToolMaxChars`). Default {@link DEFAULT_MAX_CHARS}. */
  maxToolOutputChars?: number;
}

/** Blocks hosts and plugins put into prompts: our recall/profile blocks and host reminders. */
export const stripInjectedBlocks = createTagBlockStripper(
  ['system-reminder', 'openviking-context', 'relevant-memories', 'relevant-memory'],
  'drop-tag',
);

/** `<private>…</private>`, case-insensitive and multiline; an unclosed `<private>` hides the rest. */
export const stripPrivateBlocks = createTagBlockStripper(['private'], 'drop-rest');

/**
 * Injected blocks and `<private>` removed, NULs dropped, secrets redacted,
 * outer whitespace trimmed. Not capped (see {@link capText}).
 */
export function sanitizeText(text: string): string {
  const withoutBlocks = stripPrivateBlocks(stripInjectedBlocks(text.includes('\0') ? text.replaceAll('\0', '') : text));
  return redactSecrets(withoutBlocks).trim();
}

/**
 * A search query built from user text: the same filter as {@link sanitizeText}
 * (no `<private>` section, no secret, no injected block), and the redaction
 * markers left out, since a query would only search for them. '' when
 * nothing of the user's own words is left.
 */
export function outboundQuery(text: string): string {
  const clean = sanitizeText(text);
  return withoutMarkers(clean).trim();
}

/**
 * `text` cut to at most `maxChars` characters including a marker that says so.
 * Never splits a surrogate pair.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = `\n…[truncated: ${text.length} chars in total]`;
  let keep = maxChars - marker.length;
  if (keep <= 0) return text.slice(0, Math.max(0, maxChars));
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + marker;
}

interface Limits {
  text: number;
  toolOutput: number;
}

function limitsOf(options: PrivacyOptions): Limits {
  return {
    text: options.maxTextChars ?? DEFAULT_MAX_CHARS,
    toolOutput: options.maxToolOutputChars ?? DEFAULT_MAX_CHARS,
  };
}

function sanitizeValue(value: unknown, key: string | undefined, depth: number, limits: Limits): unknown {
  if (typeof value === 'string') {
    const kind = key === undefined || value === '' ? undefined : secretKindForKey(key);
    return kind === undefined ? capText(sanitizeText(value), limits.text) : redactionMarker(kind);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_INPUT_DEPTH) return '[truncated: nested too deep]';
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, undefined, depth + 1, limits));
  const result: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) result[name] = sanitizeValue(item, name, depth + 1, limits);
  return result;
}

/** A tool input with every string value sanitised and capped, and values under credential-named keys redacted. */
export function sanitizeToolInput(
  input: Record<string, unknown> | null | undefined,
  options: PrivacyOptions = {},
): Record<string, unknown> | null | undefined {
  if (input === null || input === undefined) return input;
  return sanitizeValue(input, undefined, 0, limitsOf(options)) as Record<string, unknown>;
}

/**
 * The OpenViking credential store's MCP tools (0.5.2, F28; DESIGN D39), by
 * their tool name under any MCP prefix: what `privacy_upsert` stores (its
 * `values`) and what `privacy_resolve` answers (the stored secret itself)
 * are secrets whatever their shape, so a captured call keeps neither.
 */
const CREDENTIAL_STORE_INPUT = /(?:^|__)privacy_upsert$/;
const CREDENTIAL_STORE_OUTPUT = /(?:^|__)privacy_resolve$/;
const CREDENTIAL_MARKER = redactionMarker('openviking-credential');

type ToolPart = Extract<MessagePart, { type: 'tool' }>;

function withoutStoredCredentials(part: ToolPart): ToolPart {
  const name = part.tool_name ?? '';
  if (CREDENTIAL_STORE_OUTPUT.test(name) && part.tool_output !== undefined)
    return { ...part, tool_output: CREDENTIAL_MARKER };
  const values = part.tool_input?.['values'];
  if (CREDENTIAL_STORE_INPUT.test(name) && values !== null && typeof values === 'object' && !Array.isArray(values))
    return {
      ...part,
      tool_input: {
        ...part.tool_input,
        values: Object.fromEntries(Object.keys(values).map((key) => [key, CREDENTIAL_MARKER])),
      },
    };
  return part;
}

function sanitizePart(raw: MessagePart, limits: Limits): MessagePart | undefined {
  if (raw.type === 'text') {
    const text = capText(sanitizeText(raw.text), limits.text);
    return text === '' ? undefined : { type: 'text', text };
  }
  const part = withoutStoredCredentials(raw);
  const result: MessagePart = { ...part };
  if (part.tool_input !== undefined && part.tool_input !== null) {
    result.tool_input = sanitizeValue(part.tool_input, undefined, 0, limits) as Record<string, unknown>;
  }
  if (part.tool_output !== undefined) result.tool_output = capText(sanitizeText(part.tool_output), limits.toolOutput);
  return result;
}

/** Sanitised parts; text parts that end up empty are dropped. Tool parts are kept. */
export function sanitizeParts(parts: readonly MessagePart[], options: PrivacyOptions = {}): MessagePart[] {
  const limits = limitsOf(options);
  const result: MessagePart[] = [];
  for (const part of parts) {
    const clean = sanitizePart(part, limits);
    if (clean !== undefined) result.push(clean);
  }
  return result;
}

/** The message with sanitised parts, or undefined when nothing is left of it. */
export function sanitizeMessage<M extends SessionMessage>(message: M, options: PrivacyOptions = {}): M | undefined {
  const parts = sanitizeParts(message.parts, options);
  return parts.length === 0 ? undefined : { ...message, parts };
}

/** Every message sanitised; messages that become empty are dropped. */
export function sanitizeMessages<M extends SessionMessage>(messages: readonly M[], options: PrivacyOptions = {}): M[] {
  const result: M[] = [];
  for (const message of messages) {
    const clean = sanitizeMessage(message, options);
    if (clean !== undefined) result.push(clean);
  }
  return result;
}
