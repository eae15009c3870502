/**
 * `node:path` for the hooks module, which has no node (FC8): the POSIX
 * functions the shared rules call (join, resolve, dirname, basename,
 * isAbsolute, parse, normalize, sep), ported from node's own
 * `lib/path.js` (posix; MIT, Node.js contributors), edge cases included
 * (`dirname('//a')` is `//`). build.mjs puts this file in place of
 * `node:path` in hooks/register.mjs only; the hook processes keep node's
 * own (D30).
 *
 * POSIX only: the module hands nothing off for a session whose folder is not
 * an absolute POSIX path (a Windows host keeps its hook commands, which use
 * node's path of that platform). A relative path resolves against the
 * folder the module last set (`setWorkingDirectory`), node's process.cwd().
 * tests/mod/posix-path.test.ts holds every function to node:path.posix.
 *
 * @module
 */

export const sep = '/';
export const delimiter = ':';

const SLASH = 47;
const DOT = 46;

let workingDirectory = '/';

/** The folder a relative path resolves against (the session's folder). */
export function setWorkingDirectory(dir: string): void {
  workingDirectory = isAbsolute(dir) ? dir : '/';
}

export function isAbsolute(path: string): boolean {
  return path.length > 0 && path.charCodeAt(0) === SLASH;
}

/** Resolves `.` and `..` segments (node's normalizeString). */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = '';
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // a repeated slash or a `.` segment: nothing
      } else if (dots === 2) {
        if (
          res.length < 2 ||
          lastSegmentLength !== 2 ||
          res.charCodeAt(res.length - 1) !== DOT ||
          res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf('/');
            if (lastSlashIndex === -1) {
              res = '';
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf('/');
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = '';
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? '/..' : '..';
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += `/${path.slice(lastSlash + 1, i)}`;
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

export function normalize(path: string): string {
  if (path.length === 0) return '.';
  const absolute = isAbsolute(path);
  const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
  let normalized = normalizeString(path, !absolute);
  if (normalized.length === 0) {
    if (absolute) return '/';
    return trailingSeparator ? './' : '.';
  }
  if (trailingSeparator) normalized += '/';
  return absolute ? `/${normalized}` : normalized;
}

export function join(...parts: string[]): string {
  const joined = parts.filter((part) => part.length > 0).join('/');
  return joined.length === 0 ? '.' : normalize(joined);
}

export function resolve(...parts: string[]): string {
  let resolved = '';
  let resolvedAbsolute = false;
  for (let i = parts.length - 1; i >= -1 && !resolvedAbsolute; i--) {
    const path = i >= 0 ? (parts[i] as string) : workingDirectory;
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    resolvedAbsolute = path.charCodeAt(0) === SLASH;
  }
  const normalized = normalizeString(resolved, !resolvedAbsolute);
  if (resolvedAbsolute) return `/${normalized}`;
  return normalized.length > 0 ? normalized : '.';
}

export function dirname(path: string): string {
  if (path.length === 0) return '.';
  const hasRoot = path.charCodeAt(0) === SLASH;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? '/' : '.';
  if (hasRoot && end === 1) return '//';
  return path.slice(0, end);
}

/** The last segment (no suffix argument: the shared rules never pass one). */
export function basename(path: string): string {
  let start = 0;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 0; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        start = i + 1;
        break;
      }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  return end === -1 ? '' : path.slice(start, end);
}

/**
 * The last segment's bounds and its last dot, scanning back from the end down
 * to `start` (node's extname and parse loop), and whether that dot starts an
 * extension (not a leading dot, not `.` or `..`).
 */
function lastSegment(
  path: string,
  start: number,
): { startDot: number; startPart: number; end: number; hasExtension: boolean } {
  let startDot = -1;
  let startPart = 0;
  let end = -1;
  let matchedSlash = true;
  // 0: no dot seen yet; 1: a dot ended the name; -1: a non-dot came before the dot.
  let preDotState = 0;
  for (let i = path.length - 1; i >= start; --i) {
    const code = path.charCodeAt(i);
    if (code === SLASH) {
      if (!matchedSlash) {
        startPart = i + 1;
        break;
      }
      continue;
    }
    if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
    if (code === DOT) {
      if (startDot === -1) startDot = i;
      else if (preDotState !== 1) preDotState = 1;
    } else if (startDot !== -1) {
      preDotState = -1;
    }
  }
  const hasExtension = !(
    startDot === -1 ||
    end === -1 ||
    preDotState === 0 ||
    (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)
  );
  return { startDot, startPart, end, hasExtension };
}

export function extname(path: string): string {
  const { startDot, end, hasExtension } = lastSegment(path, 0);
  return hasExtension ? path.slice(startDot, end) : '';
}

export function parse(path: string): { root: string; dir: string; base: string; ext: string; name: string } {
  const parsed = { root: '', dir: '', base: '', ext: '', name: '' };
  if (path.length === 0) return parsed;
  const absolute = isAbsolute(path);
  if (absolute) parsed.root = '/';
  const { startDot, startPart, end, hasExtension } = lastSegment(path, absolute ? 1 : 0);
  if (end !== -1) {
    const begin = startPart === 0 && absolute ? 1 : startPart;
    parsed.base = path.slice(begin, end);
    parsed.name = hasExtension ? path.slice(begin, startDot) : parsed.base;
    if (hasExtension) parsed.ext = path.slice(startDot, end);
  }
  if (startPart > 0) parsed.dir = path.slice(0, startPart - 1);
  else if (absolute) parsed.dir = '/';
  return parsed;
}

export default { sep, delimiter, isAbsolute, normalize, join, resolve, dirname, basename, extname, parse };
