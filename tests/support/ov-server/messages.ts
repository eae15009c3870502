/**
 * `AddMessageRequest` as the session routes accept it (contract §2.1): role
 * required and free-form, `content` or `parts` (parts win), part shapes
 * validated per `part_from_dict`, unknown part types coerced to text, and
 * user tool-result aggregates split into one message per tool part.
 * Unknown request keys are ignored (the model does not forbid extras).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Identity, StoredMessage, StoredPart } from './types.js';
import { OvError } from './errors.js';
import { bodyIssue, parseOrThrow, validationError, type ValidationIssue } from './validation.js';
import { isValidIdentifier, resolveRequestUri } from './uri.js';
import { estimateTokens } from './tokens.js';

export const addMessageSchema = z.object({
  role: z.string(),
  content: z.string().optional(),
  parts: z.array(z.record(z.string(), z.unknown())).optional(),
  peer_id: z.string().optional(),
  created_at: z.string().optional(),
  turn_id: z.string().optional(),
  message_kind: z.enum(['user_query', 'assistant_step', 'tool_transport', 'checkpoint']).optional(),
  source_message_ids: z.array(z.string()).optional(),
  telemetry: z.union([z.boolean(), z.record(z.string(), z.boolean())]).optional(),
});

export type AddMessageInput = z.infer<typeof addMessageSchema>;

export const MAX_BATCH_MESSAGES = 100;

export const batchSchema = z.object({
  messages: z.array(addMessageSchema).max(MAX_BATCH_MESSAGES),
  telemetry: z.union([z.boolean(), z.record(z.string(), z.boolean())]).optional(),
});

const TOOL_STATUSES = new Set(['pending', 'running', 'completed', 'error']);
const TOOL_URI_FIELDS = ['tool_uri', 'skill_uri', 'tool_output_storage_uri'] as const;

/** A validated message before the store stamps id and order on it. */
export type PreparedMessage = Omit<StoredMessage, 'seq'>;

/**
 * Validates one message (loc prefix for batch items) and returns the stored
 * form, split when it is a user tool-result aggregate. Throws the 400.
 */
export function prepareMessage(
  input: AddMessageInput,
  identity: Identity,
  nowIso: string,
  loc: Array<string | number> = [],
): PreparedMessage[] {
  const issues: ValidationIssue[] = [];
  if (input.peer_id !== undefined && !isValidIdentifier(input.peer_id)) {
    issues.push(bodyIssue([...loc, 'peer_id'], `Invalid peer_id: ${JSON.stringify(input.peer_id)}`));
  }
  let parts: StoredPart[];
  if (input.parts !== undefined)
    parts = input.parts.map((raw, i) => normalizePart(raw, identity, [...loc, 'parts', i], issues));
  else if (input.content !== undefined) parts = [{ type: 'text', text: input.content }];
  else {
    issues.push(bodyIssue(loc, 'Either content or parts is required'));
    parts = [];
  }
  if (issues.length > 0) throw validationError(issues);
  const base = {
    role: input.role,
    created_at: input.created_at ?? nowIso,
    ...(input.peer_id === undefined ? {} : { peer_id: input.peer_id }),
    ...(input.turn_id === undefined ? {} : { turn_id: input.turn_id }),
    ...(input.source_message_ids === undefined ? {} : { source_message_ids: input.source_message_ids }),
  };
  if (isToolResultAggregate(input.role, parts)) {
    return parts.map((part) => ({
      ...base,
      id: mintMessageId(),
      parts: [part],
      message_kind: input.message_kind ?? 'tool_transport',
    }));
  }
  return [
    {
      ...base,
      id: mintMessageId(),
      parts,
      ...(input.message_kind === undefined ? {} : { message_kind: input.message_kind }),
    },
  ];
}

/** Parses a batch body (≤100 messages) and prepares every message, all-or-nothing. */
export function prepareBatch(body: unknown, identity: Identity, nowIso: string): PreparedMessage[] {
  const batch = parseOrThrow(batchSchema, body);
  return batch.messages.flatMap((message, i) => prepareMessage(message, identity, nowIso, ['messages', i]));
}

/** Tokens the server counts for a message: text, tool input JSON and tool output. */
export function messageTokens(message: Pick<StoredMessage, 'parts'>): number {
  return message.parts.reduce((sum, part) => sum + estimateTokens(partText(part)), 0);
}

/** The text a part contributes to token counts, overviews and search. */
export function partText(part: StoredPart): string {
  if (part.type === 'text') return String(part['text'] ?? '');
  if (part.type === 'tool') {
    const input =
      part['tool_input'] === null || part['tool_input'] === undefined ? '' : JSON.stringify(part['tool_input']);
    return [part['tool_name'], input, part['tool_output']]
      .filter((value) => typeof value === 'string' && value !== '')
      .join(' ');
  }
  if (part.type === 'context') return String(part['abstract'] ?? '');
  return '';
}

function isToolResultAggregate(role: string, parts: StoredPart[]): boolean {
  return role === 'user' && parts.length > 1 && parts.every((part) => part.type === 'tool');
}

function normalizePart(
  raw: Record<string, unknown>,
  identity: Identity,
  loc: Array<string | number>,
  issues: ValidationIssue[],
): StoredPart {
  switch (raw['type']) {
    case 'text':
      return { type: 'text', text: typeof raw['text'] === 'string' ? raw['text'] : '' };
    case 'context':
      return {
        type: 'context',
        uri: checkedUri(raw['uri'], identity, [...loc, 'uri'], issues) ?? '',
        context_type: typeof raw['context_type'] === 'string' ? raw['context_type'] : 'memory',
        abstract: typeof raw['abstract'] === 'string' ? raw['abstract'] : '',
      };
    case 'image_url':
      return normalizeImagePart(raw, loc, issues);
    case 'tool':
      return normalizeToolPart(raw, identity, loc, issues);
    default:
      return { type: 'text', text: typeof raw['text'] === 'string' ? raw['text'] : JSON.stringify(raw) };
  }
}

function normalizeImagePart(
  raw: Record<string, unknown>,
  loc: Array<string | number>,
  issues: ValidationIssue[],
): StoredPart {
  const image = raw['image_url'];
  const url =
    typeof image === 'string'
      ? image
      : typeof image === 'object' && image !== null
        ? (image as Record<string, unknown>)['url']
        : undefined;
  if (typeof url !== 'string' || url.trim() === '')
    issues.push(bodyIssue([...loc, 'image_url'], 'image_url must not be empty'));
  const detail = typeof image === 'object' && image !== null ? (image as Record<string, unknown>)['detail'] : undefined;
  return {
    type: 'image_url',
    image_url: { url: typeof url === 'string' ? url : '', detail: typeof detail === 'string' ? detail : 'auto' },
  };
}

function normalizeToolPart(
  raw: Record<string, unknown>,
  identity: Identity,
  loc: Array<string | number>,
  issues: ValidationIssue[],
): StoredPart {
  const status = raw['tool_status'] ?? 'pending';
  if (typeof status !== 'string' || !TOOL_STATUSES.has(status)) {
    issues.push(
      bodyIssue(
        [...loc, 'tool_status'],
        "Input should be 'pending', 'running', 'completed' or 'error'",
        'literal_error',
      ),
    );
  }
  const input = raw['tool_input'];
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    issues.push(bodyIssue([...loc, 'tool_input'], 'Input should be a valid dictionary', 'dict_type'));
  }
  const part: StoredPart = {
    ...raw,
    type: 'tool',
    tool_id: stringOr(raw['tool_id']),
    tool_name: stringOr(raw['tool_name']),
    tool_input: input ?? null,
    tool_output: stringOr(raw['tool_output']),
    tool_status: status,
  };
  for (const field of TOOL_URI_FIELDS) {
    if (typeof raw[field] === 'string' && raw[field] !== '')
      part[field] = checkedUri(raw[field], identity, [...loc, field], issues);
  }
  return part;
}

function checkedUri(
  value: unknown,
  identity: Identity,
  loc: Array<string | number>,
  issues: ValidationIssue[],
): string | undefined {
  if (typeof value !== 'string') {
    issues.push(bodyIssue(loc, 'Field required', 'missing'));
    return undefined;
  }
  try {
    return resolveRequestUri(value, identity);
  } catch (error) {
    issues.push(bodyIssue(loc, error instanceof OvError ? error.message : String(error)));
    return undefined;
  }
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function mintMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}
