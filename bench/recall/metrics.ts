/**
 * The recall benchmark's scores, from what each system injected for each
 * prompt (pluginHook.ts `Injection`):
 * - hit@1, hit@3: over prompts WITH answers, the share whose block holds an
 *   answer first / among its first three memories;
 * - MRR: the mean of 1 / the rank of the first answer (0 when none);
 * - none-injection rate: over prompts with NO answer, the share that got a
 *   block at all;
 * - cross-project rate: over all prompts, the share whose block holds
 *   anything under another project's peer folder (a memory, or that
 *   project's folder index);
 * - injected characters and milliseconds per prompt: means over all prompts.
 * Pure.
 *
 * @module
 */
import type { Prompt } from './corpus/corpus.js';
import type { Injection } from './pluginHook.js';

export interface Scores {
  prompts: number;
  withAnswers: number;
  noAnswer: number;
  hit1: number;
  hit3: number;
  mrr: number;
  noneInjection: number;
  crossProject: number;
  charsPerPrompt: number;
  msPerPrompt: number;
  p95Ms: number;
}

export interface Outcome {
  prompt: Prompt;
  injection: Injection;
}

const PEER_FOLDER = /^viking:\/\/user\/[^/]+\/peers\/([^/]+)(?:\/|$)/;

/** The rank (1-based) of the first answer among the injected URIs, 0 when none. */
export function firstAnswerRank(outcome: Outcome, idByUri: ReadonlyMap<string, string>): number {
  const answers = new Set(outcome.prompt.answers);
  const index = outcome.injection.uris.findIndex((uri) => answers.has(idByUri.get(uri) ?? ''));
  return index + 1;
}

export function crossesProject(outcome: Outcome, peerOf: ReadonlyMap<string, string>): boolean {
  const own = peerOf.get(outcome.prompt.project);
  return outcome.injection.uris.some((uri) => {
    const peer = PEER_FOLDER.exec(uri)?.[1];
    return peer !== undefined && peer !== own;
  });
}

export interface Lookup {
  idByUri: ReadonlyMap<string, string>;
  /** project name → its peer id */
  peerOf: ReadonlyMap<string, string>;
}

export function score(outcomes: readonly Outcome[], { idByUri, peerOf }: Lookup): Scores {
  const answered = outcomes.filter((outcome) => outcome.prompt.answers.length > 0);
  const none = outcomes.filter((outcome) => outcome.prompt.answers.length === 0);
  const ranks = answered.map((outcome) => firstAnswerRank(outcome, idByUri));
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  const ms = outcomes.map((outcome) => outcome.injection.ms).sort((a, b) => a - b);
  return {
    prompts: outcomes.length,
    withAnswers: answered.length,
    noAnswer: none.length,
    hit1: share(ranks.filter((rank) => rank === 1).length, answered.length),
    hit3: share(ranks.filter((rank) => rank >= 1 && rank <= 3).length, answered.length),
    mrr: share(
      ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0),
      answered.length,
    ),
    noneInjection: share(none.filter((outcome) => outcome.injection.chars > 0).length, none.length),
    crossProject: share(outcomes.filter((outcome) => crossesProject(outcome, peerOf)).length, outcomes.length),
    charsPerPrompt: share(
      outcomes.reduce((sum, outcome) => sum + outcome.injection.chars, 0),
      outcomes.length,
    ),
    msPerPrompt: share(
      ms.reduce((sum, value) => sum + value, 0),
      ms.length,
    ),
    p95Ms: ms.length === 0 ? 0 : ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)]!,
  };
}

export type Split = 'all' | 'tune' | 'held-out';

export function bySplit(outcomes: readonly Outcome[], lookup: Lookup): Record<Split, Scores> {
  return {
    all: score(outcomes, lookup),
    tune: score(
      outcomes.filter((outcome) => outcome.prompt.split === 'tune'),
      lookup,
    ),
    'held-out': score(
      outcomes.filter((outcome) => outcome.prompt.split === 'held-out'),
      lookup,
    ),
  };
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

/** One Markdown table: a row per system and split. */
export function table(results: ReadonlyArray<{ system: string; scores: Record<Split, Scores> }>): string {
  const head =
    '| System | Split | Prompts (answered / none) | hit@1 | hit@3 | MRR | Injects on no-answer | Cross-project | Chars / prompt | ms / prompt (p95) |';
  const rule = '|---|---|---|---|---|---|---|---|---|---|';
  const rows = results.flatMap(({ system, scores }) =>
    (['all', 'tune', 'held-out'] as const).map((split) => {
      const s = scores[split];
      return `| ${system} | ${split} | ${s.prompts} (${s.withAnswers} / ${s.noAnswer}) | ${pct(s.hit1)} | ${pct(s.hit3)} | ${s.mrr.toFixed(3)} | ${pct(s.noneInjection)} | ${pct(s.crossProject)} | ${Math.round(s.charsPerPrompt)} | ${Math.round(s.msPerPrompt)} (${Math.round(s.p95Ms)}) |`;
    }),
  );
  return [head, rule, ...rows].join('\n');
}
