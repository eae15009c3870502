/**
 * Request models of the retrieval routes (contract §2.2). `SearchRequest`,
 * `RecallRequest` and `FindRequest` are `extra="forbid"`: an unknown key is
 * a 400 whose message says "Extra inputs are not permitted" (the plugins'
 * legacy detection keys on that text).
 *
 * @module
 */
import { z } from 'zod';
import { QUOTA_KEYS } from './retrieval.js';

const int = () => z.number().int();
const stringOrList = z.union([z.string(), z.array(z.string())]);
const telemetry = z.union([z.boolean(), z.record(z.string(), z.boolean())]);
const detailLevel = z.enum(['abstract', 'overview', 'full']);

export const quotasSchema = z.strictObject(
  Object.fromEntries(QUOTA_KEYS.map((key) => [key, int().min(0).optional()])) as Record<
    (typeof QUOTA_KEYS)[number],
    z.ZodOptional<z.ZodNumber>
  >,
);

/** Fields of the context face shared by `/search/search` (context mode) and `/search/recall`. */
const contextFields = {
  session_id: z.string().nullable().optional(),
  query_expansion: z.enum(['off', 'auto']).optional(),
  max_tokens: int().min(64).max(32000).optional(),
  quotas: quotasSchema.nullable().optional(),
  purpose: z.enum(['chat', 'coding']).nullable().optional(),
  detail: z
    .union([detailLevel, z.record(z.string(), detailLevel)])
    .nullable()
    .optional(),
  dedup_turns: int().min(0).max(100).optional(),
  exclude_uris: z.array(z.string()).max(200).optional(),
  peer_scope: z.enum(['actor', 'all']).optional(),
  other_peer_penalty: z
    .union([z.number(), z.record(z.string(), z.number())])
    .nullable()
    .optional(),
  rewrite: z.union([z.boolean(), z.literal('auto')]).optional(),
  rewrite_max_bullets: int().min(1).max(20).optional(),
  score_threshold: z.number().nullable().optional(),
  telemetry: telemetry.optional(),
};

/** L0 filters shared by search and find. */
const filterFields = {
  context_type: stringOrList.nullable().optional(),
  filter: z.record(z.string(), z.unknown()).nullable().optional(),
  tags: stringOrList.nullable().optional(),
  since: z.string().nullable().optional(),
  until: z.string().nullable().optional(),
  time_field: z.string().nullable().optional(),
  level: z
    .union([int(), z.string(), z.array(int())])
    .nullable()
    .optional(),
  image_url: z.string().nullable().optional(),
  include_provenance: z.boolean().optional(),
};

export const searchSchema = z.strictObject({
  query: z.string().default(''),
  mode: z.enum(['list', 'context']).default('list'),
  target_uri: stringOrList.optional(),
  limit: int().min(1).optional(),
  node_limit: int().min(1).nullable().optional(),
  ...contextFields,
  ...filterFields,
});

export const recallSchema = z.strictObject({
  query: z.string(),
  max_chars: int().min(1).optional(),
  min_score: z.number().optional(),
  render: z.union([z.boolean(), z.enum(['full', 'compact'])]).optional(),
  ...contextFields,
});

export const findSchema = z.strictObject({
  query: z.string().default(''),
  target_uri: stringOrList.optional(),
  limit: int().min(1).default(10),
  node_limit: int().min(1).nullable().optional(),
  score_threshold: z.number().nullable().optional(),
  ...filterFields,
  telemetry: telemetry.optional(),
});

export const grepSchema = z.object({
  uri: z.string(),
  pattern: stringOrList,
  exclude_uri: z.string().nullable().optional(),
  case_insensitive: z.boolean().default(false),
  node_limit: int().min(1).default(256),
  level_limit: int().min(1).default(10),
});

export const globSchema = z.object({
  pattern: z.string(),
  uri: z.string().default('viking://'),
  node_limit: int().min(1).default(256),
});

/** Context-only fields: sent explicitly with `mode:"list"` they are a 400. */
export const CONTEXT_ONLY_FIELDS = [
  'query_expansion',
  'max_tokens',
  'quotas',
  'purpose',
  'detail',
  'dedup_turns',
  'exclude_uris',
  'peer_scope',
  'other_peer_penalty',
  'rewrite',
  'rewrite_max_bullets',
] as const;

export type SearchBody = z.infer<typeof searchSchema>;
export type RecallBody = z.infer<typeof recallSchema>;
