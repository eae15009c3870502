/**
 * Bypass rules: sessions and workspaces the user has told the plugin to
 * leave alone (no recall, no profile, no capture). Checked before any
 * network work, so a bypassed session costs nothing.
 *
 * Patterns are the comma-separated globs of OPENVIKING_BYPASS_SESSION_PATTERNS
 * (openviking-api.md §5.3): `**` matches anything, `*` anything but `/`,
 * `?` one character but `/`. A pattern matches when it matches the whole
 * host session id or the whole workspace path.
 *
 * @module
 */
import type { Settings } from '../config/types.js';

export type BypassSettings = Pick<Settings, 'bypassSession' | 'bypassPatterns'>;

/** True when the session must be left alone. */
export function isBypassed(settings: BypassSettings, sessionId: string | undefined, cwd: string | undefined): boolean {
  if (settings.bypassSession) return true;
  const subjects = [sessionId, cwd].filter((value): value is string => typeof value === 'string' && value !== '');
  return settings.bypassPatterns.some((pattern) => {
    const glob = pattern.trim();
    if (glob === '') return false;
    const regex = globToRegExp(glob);
    return subjects.some((subject) => regex.test(subject));
  });
}

/** An anchored regex for a `*` / `**` / `?` glob; every other character is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === '*' && glob[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
