/**
 * Retrieval over the virtual filesystem: the candidate set a caller can
 * see, the find result shape (memories/resources/skills, items without
 * overview or category, contract §2.2 tier 3 and §9.2), and the context
 * assembler behind `mode:"context"` and `/search/recall` (quotas, score
 * threshold, dedup cooling, `max_tokens` budget with detail degradation,
 * flat `<memory>` rendering, an optional deterministic digest).
 *
 * Scoring is scoring.ts; which session ledger to use is the route's call.
 *
 * @module
 */
import type { FileNode, Vfs } from './vfs.js';
import { scoreTerms, terms } from './scoring.js';
import { estimateTokens } from './tokens.js';
import { uriSegments } from './uri.js';
import type { Origin } from './peers.js';

export const QUOTA_KEYS = ['events', 'entities', 'preferences', 'experiences', 'resources', 'skills'] as const;
export type QuotaKey = (typeof QUOTA_KEYS)[number];
export type Category = QuotaKey | 'memories';
export type Quotas = Partial<Record<QuotaKey, number>>;
export type Detail = 'full' | 'overview' | 'abstract' | 'uri';

/** `coding` is the server's preset (`params.py`); `chat` is this server's own guess. */
export const PURPOSE_QUOTAS: Readonly<Record<'coding' | 'chat', Quotas>> = {
  coding: { events: 1, entities: 2, preferences: 1, experiences: 1, resources: 3, skills: 2 },
  chat: { events: 3, entities: 3, preferences: 2, experiences: 1, resources: 1, skills: 0 },
};

/** Characters of content an `overview` detail carries. */
export const OVERVIEW_CHARS = 600;

export interface Candidate {
  uri: string;
  file: FileNode;
  category: Category;
  contextType: 'memory' | 'resource' | 'skill';
  /** The score reported. */
  score: number;
  /** The score ranked by (an other peer's is lower by its penalty: peers.ts `ranked`); default `score`. */
  rankedScore?: number;
  /** Seen from the caller (peers.ts); default `self`. */
  origin?: Origin;
}

/** Category of a URI by its path (`/memories/<cat>/`, resources, skills). */
export function categoryOf(uri: string): Category {
  const segments = uriSegments(uri);
  if (segments[0] === 'resources' || (segments[0] === 'user' && segments[2] === 'resources')) return 'resources';
  if (segments.includes('skills') && !segments.includes('memories')) return 'skills';
  const afterMemories = segments[segments.indexOf('memories') + 1];
  return (QUOTA_KEYS as readonly string[]).includes(afterMemories ?? '') ? (afterMemories as QuotaKey) : 'memories';
}

function contextTypeOf(category: Category): Candidate['contextType'] {
  if (category === 'resources') return 'resource';
  return category === 'skills' ? 'skill' : 'memory';
}

/** Scored, visible (non-hidden) files under `roots`, best first, ties by URI. */
export function rankCandidates(vfs: Vfs, account: string, query: string, roots: string[]): Candidate[] {
  const queryTerms = terms(query);
  const seen = new Map<string, Candidate>();
  for (const root of roots) {
    for (const { uri, file } of vfs.filesUnder(account, root)) {
      const segments = uriSegments(uri);
      // Hidden files and sessions (archives, diffs) are never hits.
      if (seen.has(uri) || segments.some((segment) => segment.startsWith('.')) || segments[2] === 'sessions') continue;
      const documentTerms = terms(`${uriSegments(uri).join(' ')} ${file.abstract} ${file.content}`);
      const category = categoryOf(uri);
      seen.set(uri, {
        uri,
        file,
        category,
        contextType: contextTypeOf(category),
        score: scoreTerms(queryTerms, documentTerms),
      });
    }
  }
  return [...seen.values()].sort((a, b) => b.score - a.score || (a.uri < b.uri ? -1 : 1));
}

/** The `FindResult.to_dict` shape. */
export function findResult(
  candidates: Candidate[],
  limit: number,
  scoreThreshold: number | undefined,
  contextTypes?: string[],
): Record<string, unknown> {
  const kept = candidates
    .filter((candidate) => scoreThreshold === undefined || candidate.score >= scoreThreshold)
    .filter((candidate) => contextTypes === undefined || contextTypes.includes(candidate.contextType))
    .slice(0, limit);
  const item = (candidate: Candidate): Record<string, unknown> => ({
    context_type: candidate.contextType,
    uri: candidate.uri,
    level: 2,
    score: candidate.score,
    abstract: candidate.file.abstract,
    tags: candidate.file.tags,
  });
  return {
    memories: kept.filter((c) => c.contextType === 'memory').map(item),
    resources: kept.filter((c) => c.contextType === 'resource').map(item),
    skills: kept.filter((c) => c.contextType === 'skill').map(item),
    total: kept.length,
  };
}

export interface AssembleOptions {
  maxTokens: number;
  quotas: Quotas | null;
  limit: number;
  scoreThreshold: number | undefined;
  detail: Detail | 'auto' | Partial<Record<string, string>>;
  excludeUris: string[];
  cooled: Set<string>;
  rewrite: boolean | 'auto';
  rewriteMaxBullets: number;
}

export interface ContextEntry {
  uri: string;
  category: Category;
  score: number;
  detail: Detail;
  text: string;
  origin: Origin;
}

export interface Assembled {
  entries: ContextEntry[];
  rendered: string;
  digest: string;
  usedTokens: number;
  tierCounts: Record<Detail, number>;
  cooledCount: number;
  rewrite: 'off' | 'ok' | 'no_relevant';
}

const DETAIL_ORDER: readonly Detail[] = ['full', 'overview', 'abstract', 'uri'];

/**
 * Selects, budgets and renders context entries from `candidates` (best
 * first by ranking score). The threshold is on the reported score; the
 * profile (`…/profile.md`) is never an entry (0.5.2 `gather.py`).
 */
export function assembleContext(candidates: Candidate[], options: AssembleOptions): Assembled {
  const eligible = candidates.filter(
    (candidate) =>
      !candidate.uri.endsWith('/profile.md') &&
      (options.scoreThreshold === undefined || candidate.score >= options.scoreThreshold) &&
      !options.excludeUris.some((excluded) => candidate.uri === excluded || candidate.uri.startsWith(`${excluded}/`)),
  );
  const fresh = eligible.filter((candidate) => !options.cooled.has(candidate.uri));
  const entries = budgetEntries(selectByQuota(fresh, options), options);
  const tierCounts: Record<Detail, number> = { full: 0, overview: 0, abstract: 0, uri: 0 };
  for (const entry of entries) tierCounts[entry.detail] += 1;
  const usedTokens = entries.reduce((sum, entry) => sum + estimateTokens(entry.text), 0);
  const base = { entries, usedTokens, tierCounts, cooledCount: eligible.length - fresh.length };
  if (options.rewrite === false) return { ...base, rendered: renderEntries(entries), digest: '', rewrite: 'off' };
  if (entries.length === 0) return { ...base, rendered: '', digest: '', rewrite: 'no_relevant' };
  return {
    ...base,
    rendered: renderEntries(entries),
    digest: digestOf(entries, options.rewriteMaxBullets),
    rewrite: 'ok',
  };
}

/**
 * 0.5.2's quotas: each is a first-pass ceiling of its category, and the
 * slots one leaves unused go to the best remaining hits of the others, up
 * to the quotas' sum; the result best first. Without quotas, the top `limit`.
 */
function selectByQuota(candidates: Candidate[], options: AssembleOptions): Candidate[] {
  const quotas = options.quotas;
  if (quotas === null) return candidates.slice(0, options.limit);
  const quotaOf = (category: Category): number => (category === 'memories' ? 0 : (quotas[category] ?? 0));
  const total = Object.values(quotas).reduce((sum, quota) => sum + Math.max(0, quota ?? 0), 0);
  const taken = new Map<Category, number>();
  const first: Candidate[] = [];
  const spare: Candidate[] = [];
  for (const candidate of candidates.filter((item) => quotaOf(item.category) > 0)) {
    const used = taken.get(candidate.category) ?? 0;
    if (used < quotaOf(candidate.category)) {
      taken.set(candidate.category, used + 1);
      first.push(candidate);
    } else spare.push(candidate);
  }
  const chosen = [...first, ...spare.slice(0, Math.max(0, total - first.length))];
  const order = new Map(candidates.map((candidate, index) => [candidate.uri, index]));
  return chosen.sort((a, b) => (order.get(a.uri) ?? 0) - (order.get(b.uri) ?? 0));
}

function budgetEntries(selected: Candidate[], options: AssembleOptions): ContextEntry[] {
  let remaining = options.maxTokens;
  const entries: ContextEntry[] = [];
  for (const candidate of selected) {
    const start = startingDetail(options.detail, candidate.category);
    for (const detail of DETAIL_ORDER.slice(DETAIL_ORDER.indexOf(start))) {
      const text = detailText(candidate, detail);
      const cost = detail === 'uri' ? estimateTokens(candidate.uri) : estimateTokens(text);
      if (cost > remaining) continue;
      remaining -= cost;
      entries.push({
        uri: candidate.uri,
        category: candidate.category,
        score: candidate.score,
        detail,
        text,
        origin: candidate.origin ?? 'self',
      });
      break;
    }
  }
  return entries;
}

function startingDetail(detail: AssembleOptions['detail'], category: Category): Detail {
  const chosen = typeof detail === 'string' ? detail : detail[category];
  return chosen === 'full' || chosen === 'abstract' || chosen === 'overview' ? chosen : 'overview';
}

function detailText(candidate: Candidate, detail: Detail): string {
  switch (detail) {
    case 'full':
      return candidate.file.content;
    case 'overview':
      return candidate.file.content.slice(0, OVERVIEW_CHARS);
    case 'abstract':
      return candidate.file.abstract;
    case 'uri':
      return '';
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Flat XML, one `<memory>` per entry joined by `\n`, self-closing when the text is empty. */
export function renderEntries(entries: ContextEntry[]): string {
  return entries
    .map((entry) => {
      const attributes = `uri="${escapeAttribute(entry.uri)}" type="${entry.category}" score="${entry.score.toFixed(2)}" detail="${entry.detail}"`;
      return entry.text === '' ? `<memory ${attributes}/>` : `<memory ${attributes}>\n${entry.text}\n</memory>`;
    })
    .join('\n');
}

function digestOf(entries: ContextEntry[], maxBullets: number): string {
  const bullets = entries.slice(0, maxBullets).map((entry) => {
    const gist = (entry.text || entry.uri).replace(/\s+/g, ' ').trim();
    return `- ${gist.slice(0, 400)} (${entry.uri})`.slice(0, 500);
  });
  return ['OpenViking memory digest:', ...bullets].join('\n');
}
