/**
 * A project's peer id the way OpenViking's own plugins derive it (their
 * shared `workspace-identity.mjs` / `workspace-peer.mjs`; DESIGN D24), so a
 * user of those plugins and of this one finds ONE project memory on the
 * server: `peer.source` templates over a few variables, first that renders
 * wins. Pure functions: no I/O.
 *
 * - `{git_remote}`: the `origin` remote as `host/path` (WHATWG URL parsing
 *   or git's scp form; user info, port, query, fragment, a trailing `/` then
 *   `.git` dropped; lower case), sanitised: `git@github.com:Acme/App.git`
 *   gives `github.com-acme-app`.
 * - `{git_root}`, `{cwd}`: the path in the legacy form, every UTF-16 unit
 *   outside `[A-Za-z0-9]` as `-` (`/home/u/app` → `-home-u-app`).
 * - `{dir}`: the workspace root's folder name, sanitised. `{git_port}`: a
 *   remote's explicit non-default port.
 * - Presets: `git` (default) = `{git_remote}`, then `{git_root}`; `cwd`;
 *   `none`. A template with a variable that is empty or unknown renders
 *   nothing, and the next one is tried.
 *
 * Where this differs from upstream, on purpose (a credential must never
 * reach an id, issue 20): user info ends at the LAST `@` that a host and
 * `/` follow, before the URL is parsed (a password holding `/`, `?`, `#` or
 * `@` would otherwise be read as host and path), and the scp form loses its
 * query and fragment too. A rendered id the server would refuse is skipped
 * (upstream sends it). `{harness}` is not offered (it renders nothing).
 *
 * @module
 */
import { sha256Hex } from '../store/sha256.js';
import { isValidPeerId, userInfoEnd } from './remote.js';

/** The variables a template may use; '' when not known here. */
export interface TemplateVariables {
  git_remote: string;
  git_root: string;
  cwd: string;
  dir: string;
  git_port: string;
}

export const PRESETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  git: ['{git_remote}', '{git_root}'],
  cwd: ['{cwd}'],
  none: [],
});

const MAX_ID_LENGTH = 100;
const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  ssh: '22',
  http: '80',
  https: '443',
  git: '9418',
  rsync: '873',
};

interface RemoteParts {
  scheme: string;
  host: string;
  path: string;
  port: string;
}

/** The pieces of a remote URL, or undefined for a local path, a drive path, `file:` or anything unparsable. */
export function parseRemote(url: string): RemoteParts | undefined {
  const raw = url.trim();
  if (raw === '' || /^[A-Za-z]:[\\/]/.test(raw)) return undefined;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(raw);
  if (scheme === null) {
    // git's scp form `[user@]host:path`: a colon before any slash; the user runs to the last `@` before the host.
    const colon = raw.indexOf(':');
    const slash = raw.search(/[/\\]/);
    const scp =
      colon !== -1 && (slash === -1 || colon < slash) ? /^(?:.*@)?([^:/\\@\s]+):(?!\/)(.+)$/s.exec(raw) : null;
    return scp === null
      ? undefined
      : { scheme: 'ssh', host: scp[1] as string, path: withoutQuery(scp[2] as string), port: '' };
  }
  const rest = raw.slice((scheme[0] as string).length);
  let parsed: URL;
  try {
    parsed = new URL(`${scheme[0]}${rest.slice(userInfoEnd(rest))}`);
  } catch {
    return undefined;
  }
  if (parsed.protocol === 'file:' || parsed.hostname === '') return undefined;
  return { scheme: parsed.protocol.slice(0, -1), host: parsed.hostname, path: parsed.pathname, port: parsed.port };
}

/** `host/path` of a parsed remote (lower case, no brackets, slashes or `.git` at the ends), '' when either part is empty. */
export function normalizeRemote(parts: RemoteParts | undefined): string {
  if (parts === undefined) return '';
  const host = parts.host.toLowerCase().replace(/^\[/, '').replace(/\]$/, '');
  const path = parts.path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase();
  return host === '' || path === '' ? '' : `${host}/${path}`;
}

/** The port a remote names explicitly when it is not its scheme's default, else ''. */
export function remotePort(parts: RemoteParts | undefined): string {
  if (parts === undefined || parts.port === '') return '';
  return DEFAULT_PORTS[parts.scheme] === parts.port ? '' : parts.port;
}

/** `{git_remote}` of a remote URL: '' when it names no host and path. */
export function gitRemoteVariable(url: string | undefined): string {
  return url === undefined ? '' : sanitizePeerId(normalizeRemote(parseRemote(url)));
}

/**
 * The server's own sanitiser: runs outside `[a-zA-Z0-9_.@-]` as one `-`, no
 * `-`/`.` at the ends, one `@` at most, never `ext-…` or `__self`; past 100
 * characters cut to 87 with 12 hex digits of the input's SHA-256.
 */
export function sanitizePeerId(value: string): string {
  const raw = value.trim();
  let id = raw
    .replace(/[^a-zA-Z0-9_.@-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  if (id === '') return '';
  const at = id.indexOf('@');
  if (at !== -1) id = `${id.slice(0, at + 1)}${id.slice(at + 1).replace(/@/g, '-')}`;
  if (id.startsWith('ext-')) id = `x-${id}`;
  if (id === '__self') id = 'self';
  if (id === '.' || id === '..') return '';
  if (id.length > MAX_ID_LENGTH) id = `${id.slice(0, 87).replace(/[-.]+$/, '')}-${sha256Hex(raw).slice(0, 12)}`;
  return id;
}

/** The legacy form of a path: every UTF-16 unit outside `[A-Za-z0-9]` as `-`, nothing else changed. */
export function legacyPeerForm(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * The templates of a `peer.source` value: a preset name, one template, or a
 * list (from a JSON file; items taken as written). Anything else is a typo:
 * `warn` says so and the default applies.
 */
export function templatesOf(
  source: string | readonly string[] | undefined,
  warn: (message: string) => void,
): readonly string[] {
  if (Array.isArray(source)) return source.map((item) => String(item)).filter((item) => item !== '');
  const text = typeof source === 'string' ? source.trim() : '';
  if (text === '') return PRESETS.git as readonly string[];
  const preset = PRESETS[text];
  if (preset !== undefined) return preset;
  if (text.includes('{')) return [text];
  warn(
    `peer source "${text.slice(0, 60)}" is neither a preset (git, cwd, none) nor a template such as "team-{dir}"; using git`,
  );
  return PRESETS.git as readonly string[];
}

/** `template` with every `{name}` replaced; '' when any variable is unknown or empty (all or nothing). */
export function renderTemplate(template: string, variables: TemplateVariables): string {
  let complete = true;
  const rendered = template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name as keyof TemplateVariables] : '';
    if (value === '') complete = false;
    return value;
  });
  return complete ? rendered : '';
}

/** The first template that renders a valid id, and which one; undefined when none does. `warn` hears of ids the server would refuse. */
export function firstRendered(
  templates: readonly string[],
  variables: TemplateVariables,
  warn: (message: string) => void,
): { id: string; template: string } | undefined {
  for (const template of templates) {
    const id = renderTemplate(template, variables);
    if (id === '') continue;
    if (isValidPeerId(id)) return { id, template };
    warn(
      `peer source "${template}" renders "${id.slice(0, 60)}", which is not a valid peer id (^[a-zA-Z0-9_.@-]+$, one @, 128 characters); trying the next`,
    );
  }
  return undefined;
}

function withoutQuery(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}
