/**
 * Which hooks.json matcher groups an event selects.
 *
 * CodeBuddy and Claude Code read the same `matcher` field differently (see
 * `MatcherMode`), so the reading is a parameter. The plugin ships matchers
 * that mean the same in both (anchored alternations), and its tests check
 * them in both modes.
 *
 * @module
 */
import type { MatcherMode } from './types.js';

/** A Claude Code literal pattern: word characters and `|` only. */
const LITERAL_PATTERN = /^[A-Za-z0-9_|]+$/;

/** True for the match-all sentinels: absent, empty, `*`. */
export function isMatchAll(matcher: string | undefined): boolean {
  return matcher === undefined || matcher === '' || matcher === '*';
}

/**
 * Whether `matcher` selects `query`.
 * @param matcher - the group's pattern; absent/''/'*' select everything.
 * @param query - the event's match value (`matcherQuery`); `undefined` (an
 *   event without one) selects every group, as on CodeBuddy.
 * @param mode - the host's reading of the pattern.
 * @returns false for a non-match and for an invalid regex; never throws.
 */
export function matchesMatcher(matcher: string | undefined, query: string | undefined, mode: MatcherMode): boolean {
  if (isMatchAll(matcher) || query === undefined) return true;
  const pattern = matcher as string;
  if (mode === 'claude' && LITERAL_PATTERN.test(pattern)) return pattern.split('|').includes(query);
  const regex = compileRegex(pattern);
  return regex !== undefined && regex.test(query);
}

/** An unanchored regex, or undefined when the pattern does not compile. */
function compileRegex(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    // Only RegExp construction is inside the try: a malformed pattern matches nothing.
    return undefined;
  }
}

/**
 * The value CodeBuddy matches an event's groups against (2.117 bundle,
 * `getMatchValue`): the tool name for tool events, `source` for
 * SessionStart, `reason` for SessionEnd, `trigger` for PreCompact,
 * `notification_type` for Notification; no value (match all) otherwise.
 */
export function matcherQuery(event: string, payload: Readonly<Record<string, unknown>>): string | undefined {
  const field = matchField(event);
  if (field === undefined) return undefined;
  const value = payload[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The payload field CodeBuddy matches for `event`, if any. */
function matchField(event: string): string | undefined {
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
      return 'tool_name';
    case 'SessionStart':
      return 'source';
    case 'SessionEnd':
      return 'reason';
    case 'PreCompact':
      return 'trigger';
    case 'Notification':
      return 'notification_type';
    default:
      return undefined;
  }
}
