/**
 * What a prompt recalls: how many memories, how relevant, in what budget,
 * and which project's (the peer id of each project and how other projects'
 * memories are weighed; projects.md).
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';

export const RECALL_KNOBS = {
  recallLimit: {
    env: 'OPENVIKING_RECALL_LIMIT',
    type: 'int',
    default: 10,
    min: 1,
    max: 100,
    description: 'Most memories injected per prompt.',
  },
  scoreThreshold: {
    env: 'OPENVIKING_SCORE_THRESHOLD',
    type: 'float',
    default: 0.35,
    min: 0,
    max: 1,
    description: 'Lowest relevance score a recalled memory may have.',
  },
  recallMinRelevance: {
    env: 'OPENVIKING_RECALL_MIN_RELEVANCE',
    type: 'float',
    default: 0,
    min: 0,
    max: 2,
    description:
      "Inject nothing when the best memory's relevance (its score plus the plugin's re-rank, D43) is below this; 0: off. Depends on the embedding model: with all-MiniLM-L6-v2, 0.69 halved injections on the benchmark's prompts that no memory answers and cost some right answers (D43).",
  },
  minQueryLength: {
    env: 'OPENVIKING_MIN_QUERY_LENGTH',
    type: 'int',
    default: 3,
    min: 1,
    max: 1000,
    description: 'Prompts shorter than this (characters, once private parts are removed) skip recall.',
  },
  recallMaxTokens: {
    env: 'OPENVIKING_RECALL_MAX_TOKENS',
    type: 'int',
    default: 1600,
    min: 64,
    max: 32000,
    description: 'Server-side token budget of the recall block (context search `max_tokens`).',
  },
  recallDedupTurns: {
    env: 'OPENVIKING_RECALL_DEDUP_TURNS',
    type: 'int',
    default: 5,
    min: 0,
    max: 100,
    description: 'Turns during which the server does not repeat a memory it already injected (0: off).',
  },
  recallTokenBudget: {
    env: 'OPENVIKING_RECALL_TOKEN_BUDGET',
    type: 'int',
    default: 2000,
    min: 200,
    max: 32000,
    description: 'Token budget of the client-side fallback recall block.',
  },
  recallMaxContentChars: {
    env: 'OPENVIKING_RECALL_MAX_CONTENT_CHARS',
    type: 'int',
    default: 500,
    min: 50,
    max: 20000,
    description: 'Characters kept per memory in the fallback recall block.',
  },
  workspacePeer: {
    env: 'OPENVIKING_WORKSPACE_PEER',
    type: 'bool',
    default: true,
    description:
      'Give each project its own peer id (by `OPENVIKING_PEER_SOURCE`) when none is named; off: none (named ids still apply); see projects.md.',
  },
  peerSource: {
    env: 'OPENVIKING_PEER_SOURCE',
    type: 'csv',
    default: [],
    description:
      "How a project's peer id is derived when none is named, as OpenViking's own plugins do (see projects.md): `git` (empty: the `origin` remote, else the repository's path), `cwd` (the working folder's path), `none`, or comma-separated templates over `{git_remote}`, `{git_root}`, `{cwd}`, `{dir}`, `{git_port}` (the first that resolves wins). A workspace's `peer.source` comes after the environment, before ovcli.conf.",
  },
  recallPeerScope: {
    env: 'OPENVIKING_RECALL_PEER_SCOPE',
    type: 'string',
    choices: ['all', 'actor'],
    default: 'all',
    description:
      "`all`: the server searches every project's memories, others' penalised (the plugin then drops them: none reaches the prompt); `actor`: it searches only this project's and those of no project.",
  },
  recallOtherPeerPenalty: {
    env: 'OPENVIKING_RECALL_OTHER_PEER_PENALTY',
    type: 'float',
    default: 0.1,
    min: 0,
    max: 1,
    description:
      "Score the server takes off another project's memories in recall (`all` scope): it ranks them lower, so they take fewer of its places; one that still outscores all of this project's shows the prompt is about that project, and nothing is injected (D43).",
  },
  recallExcludeUris: {
    env: 'OPENVIKING_RECALL_EXCLUDE_URIS',
    type: 'csv',
    default: [],
    description: 'Comma-separated URIs (a folder URI covers everything below it) that recall never injects.',
  },
  recallPrefix: {
    env: 'OPENVIKING_RECALL_PREFIX',
    type: 'string',
    default: '',
    description:
      'Opt-in recall: only prompts starting with this (e.g. `?ov`) are recalled for, without it; empty: every prompt.',
  },
} satisfies Partial<KnobTable>;
