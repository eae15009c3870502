/**
 * Bypass rules: sessions and workspaces the user has told the plugin to
 * leave alone (no recall, no start reads, no capture, no replay of their
 * queued turns, and no MCP call from a bypassed folder; session/switches.ts
 * says what each switch turns off). Checked before any network work, so a
 * bypassed session costs nothing.
 *
 * Patterns are the comma-separated globs of OPENVIKING_BYPASS_SESSION_PATTERNS
 * (openviking-api.md §5.3), read as gitignore reads `**`: `dir/**` matches
 * `dir` itself and everything below it; a `**` segment followed by a slash
 * matches zero or more whole folders (`a/**` `/b` written together matches
 * `a/b` too); any other `**` matches anything; `*` matches anything but
 * `/`, `?` one character but `/`. A
 * pattern matches when it matches the whole host session id or the whole
 * workspace path. No `~` expansion: a pattern names an absolute path.
 *
 * @module
 */
import type { Settings } from '../config/types.js';

export type BypassSettings = Pick<Settings, 'bypassSession' | 'bypassPatterns'>;

/** Why a session is bypassed: the session switch, or the first pattern that matched its id or its folder. */
export type BypassMatch = { by: 'switch' } | { by: 'pattern'; pattern: string; subject: 'session' | 'folder' };

/** True when the session must be left alone. */
export function isBypassed(settings: BypassSettings, sessionId: string | undefined, cwd: string | undefined): boolean {
  return bypassMatch(settings, sessionId, cwd) !== undefined;
}

/** What bypasses the session, or undefined when nothing does. */
export function bypassMatch(
  settings: BypassSettings,
  sessionId: string | undefined,
  cwd: string | undefined,
): BypassMatch | undefined {
  if (settings.bypassSession) return { by: 'switch' };
  for (const raw of settings.bypassPatterns) {
    const pattern = raw.trim();
    if (pattern === '') continue;
    const regex = globToRegExp(pattern);
    if (typeof sessionId === 'string' && sessionId !== '' && regex.test(sessionId))
      return { by: 'pattern', pattern, subject: 'session' };
    if (typeof cwd === 'string' && cwd !== '' && regex.test(cwd)) return { by: 'pattern', pattern, subject: 'folder' };
  }
  return undefined;
}

/** An anchored regex for a glob (see the module header); every other character is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === '*' && glob[index + 1] === '*') {
      const atStart = index === 0 || glob[index - 1] === '/';
      const atEnd = index + 2 === glob.length;
      if (atStart && glob[index + 2] === '/') {
        // `**/`: zero or more whole folders (`a/**/b` is also `a/b`).
        source += '(?:.*/)?';
        index += 2;
      } else if (atEnd && source.endsWith('\\/')) {
        // `dir/**`: the folder itself or anything below it.
        source = `${source.slice(0, -2)}(?:/.*)?`;
        index++;
      } else {
        source += '.*';
        index++;
      }
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
