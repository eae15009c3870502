/**
 * Which prompts get recall, decided with NO network: a skipped prompt costs
 * only this check. Skipped are: recall switched off; bypassed sessions or
 * workspaces; host-driven continuations (`is_internal_continuation` on newer
 * hosts; on 2.117 the Stop-hook text `Stop hook: …` / `Hook timed out
 * after …` and the post-compaction "Please continue…" come back as ordinary
 * prompts, codebuddy-host README §3; on Claude Code a background agent's end
 * comes back as a `<task-notification>` prompt, FC4); prompts that are only
 * host markup or already carry our block; bare slash commands; and queries shorter than
 * `minQueryLength`.
 *
 * The query is the prompt through the privacy filter (transcript/privacy.ts,
 * DESIGN D17): no `<private>` section and no secret leaves the machine in a
 * search, whichever tier sends it; a prompt that is only private text (or too
 * short once filtered) gets no recall at all.
 *
 * A prompt that only acknowledges or greets ("thanks, looks good", "ok do
 * it") gets none either: it asks nothing of memory (smallTalk.ts, D43);
 * nor does one that asks for a live measurement ("how many tenants are on
 * the enterprise plan right now"): memory holds no such value (liveValue.ts).
 *
 * Slash commands (`/name …`) and shell escapes (`!cmd`) never recall: they
 * are instructions to the host, and a command such as `/openviking:forget`
 * must not pull memories in (issue 17.2). Opt-in mode
 * (`OPENVIKING_RECALL_PREFIX`, e.g. `?ov`): only prompts that start with the
 * prefix are recalled for, and the prefix is not part of the query.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import type { UserPromptSubmitInput } from '../protocol/input.js';
import { isBypassed } from '../session/bypass.js';
import { codeBuddyUserText } from '../transcript/host-text.js';
import { outboundQuery } from '../transcript/privacy.js';
import { asksLiveValue } from './liveValue.js';
import { isSmallTalk } from './smallTalk.js';

export type RecallSkipReason =
  | 'disabled'
  | 'auto-recall-off'
  | 'bypassed'
  | 'internal-continuation'
  | 'host-continuation'
  | 'already-injected'
  | 'host-markup-only'
  | 'slash-command'
  | 'shell-escape'
  /** Opt-in mode: the prompt does not start with the recall prefix. */
  | 'no-prefix'
  | 'too-short'
  /** Nothing (or too little) is left once `<private>` sections and secrets are removed: no request at all. */
  | 'private-only'
  /** The prompt only acknowledges or greets (smallTalk.ts). */
  | 'small-talk'
  /** The prompt asks for a live measurement, which memory does not hold (liveValue.ts). */
  | 'live-value';

export type RecallDecision = { recall: true; query: string } | { recall: false; reason: RecallSkipReason };

/** Longest query sent (characters); longer prompts are cut. */
export const MAX_QUERY_CHARS = 4000;

/** Host-generated prompts seen on 2.117 (samples T, L, F). Anchored at the start, so a user quoting them mid-sentence still gets recall. */
const HOST_CONTINUATIONS = [
  /^\s*(?:Stop|SubagentStop) hook:/i,
  /^\s*Hook timed out after \d+\s*ms/i,
  /^\s*Please continue (?:with )?the conversation (?:based on|from where)/i,
  /^\s*<task-notification>/,
];

const SLASH_COMMAND = /^\/[A-Za-z][\w:.-]*(?=\s|$)/;

export function decideRecall(
  input: UserPromptSubmitInput,
  settings: Pick<
    Settings,
    'enabled' | 'autoRecall' | 'bypassSession' | 'bypassPatterns' | 'minQueryLength' | 'recallPrefix'
  >,
  workspace: string,
): RecallDecision {
  if (!settings.enabled) return skip('disabled');
  if (!settings.autoRecall) return skip('auto-recall-off');
  if (isBypassed(settings, input.session_id, workspace)) return skip('bypassed');
  if (input.is_internal_continuation === true) return skip('internal-continuation');
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  if (/<openviking-context\b/i.test(prompt)) return skip('already-injected');
  if (HOST_CONTINUATIONS.some((pattern) => pattern.test(prompt))) return skip('host-continuation');
  let typed = codeBuddyUserText(prompt);
  if (typed === '') return skip(prompt.trim() === '' ? 'too-short' : 'host-markup-only');
  if (HOST_CONTINUATIONS.some((pattern) => pattern.test(typed))) return skip('host-continuation');
  const gated = afterPrefix(typed, settings.recallPrefix);
  if (gated === undefined) return skip('no-prefix');
  typed = gated;
  if (SLASH_COMMAND.test(typed)) return skip('slash-command');
  if (typed.startsWith('!')) return skip('shell-escape');
  const asked = typed.trim();
  // The query leaves the machine: the privacy filter first, and the length rule on what is left.
  const query = outboundQuery(asked);
  // The knob's bound is 1, and an empty query is never sent whatever a caller passes.
  const minLength = Math.max(1, settings.minQueryLength);
  if ([...query].length < minLength) return skip([...asked].length < minLength ? 'too-short' : 'private-only');
  if (isSmallTalk(query)) return skip('small-talk');
  if (asksLiveValue(query)) return skip('live-value');
  return { recall: true, query: query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query };
}

/** The prompt without the opt-in prefix; the prompt itself when no prefix is set; undefined when it lacks the prefix. */
function afterPrefix(typed: string, prefix: string): string | undefined {
  const wanted = prefix.trim();
  if (wanted === '') return typed;
  const text = typed.trimStart();
  if (!text.startsWith(wanted)) return undefined;
  const rest = text.slice(wanted.length);
  return rest === '' || /^\s/.test(rest) ? rest.trim() : undefined;
}

function skip(reason: RecallSkipReason): RecallDecision {
  return { recall: false, reason };
}
