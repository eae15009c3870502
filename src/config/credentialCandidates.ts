/**
 * Where a credential value can come from (credentials.ts picks among them):
 * a variable, a plugin option, a field of a config file, each a
 * `Candidate` with its source (what doctor shows) and its layer (whose
 * server binds its identity fields, DESIGN D6). URLs are checked here: a
 * value that is no http(s) URL, or that hides a user and password, is
 * dropped or cleaned with a warning.
 *
 * @module
 */
import type { ValueSource } from './types.js';
import type { JsonRecord } from '../util/json.js';
import { isRecord } from '../util/json.js';
import { displayPath, type LoadedConfigFile } from './configFile.js';
import { text } from './pluginOptions.js';
import { displayUrl } from '../openviking/displayUrl.js';

/** Which source a value came from: a server it names binds its identity fields (credentials.ts). */
export type Layer = 'env' | 'options' | 'ovcli' | 'ovconf';

export interface Candidate {
  source: ValueSource;
  value: string | undefined;
  layer: Layer;
  /** Set for a URL that is not an http(s) URL: kept as written, so nothing is sent to another server instead. */
  invalid?: string;
}

/**
 * String fields of one JSON object in a config file, as candidates with
 * their sources. A field of the wrong type is skipped with a warning naming
 * file and field.
 */
export class FileFields {
  /** Fields of the whole file. */
  static of(file: LoadedConfigFile, homeDir: string, warnings: string[], layer: Layer): FileFields {
    return new FileFields(file, homeDir, warnings, file.value, '', layer);
  }

  private constructor(
    private readonly file: LoadedConfigFile,
    private readonly homeDir: string,
    private readonly warnings: string[],
    private readonly value: JsonRecord | undefined,
    private readonly prefix: string,
    private readonly layer: Layer,
  ) {}

  get(key: string): Candidate {
    const entry = this.value?.[key];
    const candidate = (value: string | undefined): Candidate => ({
      source: this.sourceOf(key),
      value,
      layer: this.layer,
    });
    if (entry === undefined || entry === null) return candidate(undefined);
    if (typeof entry === 'number' && Number.isFinite(entry)) return candidate(String(entry));
    if (typeof entry !== 'string') {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be a string; ignoring it`);
      return candidate(undefined);
    }
    return candidate(text(entry));
  }

  section(key: string): FileFields {
    const entry = this.value?.[key];
    if (entry !== undefined && entry !== null && !isRecord(entry)) {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be an object; ignoring it`);
    }
    return new FileFields(
      this.file,
      this.homeDir,
      this.warnings,
      isRecord(entry) ? entry : undefined,
      `${this.prefix}${key}.`,
      this.layer,
    );
  }

  sourceOf(key: string): ValueSource {
    return `file:${this.shown()}#${this.prefix}${key}`;
  }

  private shown(): string {
    return displayPath(this.file.path, this.homeDir);
  }
}

/** `http://{server.host or 127.0.0.1, 0.0.0.0 → 127.0.0.1}:{server.port or 1933}`, only when ov.conf names a host or port. */
export function derivedServerUrl(server: FileFields): Candidate {
  const host = server.get('host');
  const port = server.get('port');
  if (host.value === undefined && port.value === undefined) return { ...host, value: undefined };
  const portNumber = port.value !== undefined && /^\d+$/.test(port.value) ? Number(port.value) : 1933;
  const hostName = !host.value || host.value === '0.0.0.0' ? '127.0.0.1' : host.value;
  return { ...(host.value !== undefined ? host : port), value: `http://${hostName}:${portNumber}` };
}

/**
 * Checks each URL candidate: one that is not an http(s) URL (no scheme, or
 * an "@" after its host) is kept as written and marked, with a warning, so
 * the source the user chose still wins and nothing is sent until it is
 * corrected (never the default server in its place: the conversation
 * would go where the user did not send it); trims trailing slashes; leaves
 * out a `user:password@` (never sent: the key is a header), so no message,
 * log or request can carry it (issue 20 item 5). Warnings show a URL
 * without its user info (displayUrl.ts).
 */
export function validUrls(candidates: Candidate[], warnings: string[]): Candidate[] {
  return candidates.map((candidate) => {
    const { source, value } = candidate;
    if (value === undefined) return candidate;
    const shown = displayUrl(value, true);
    const url = parseUrl(value);
    if (url === undefined) {
      const problem = `"${shown}" is not an http(s) URL${/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? '' : ` (no scheme: write http://${shown} or https://${shown})`}`;
      warnings.push(`${source}: ${problem}`);
      return { ...candidate, value: shown, invalid: problem };
    }
    if (`${url.pathname}${url.search}${url.hash}`.includes('@')) {
      // `https://u:12/34@host` parses as host `u`, port 12: the user's words would be looked up and shown as the host.
      const problem = `"${shown}" has an "@" after its host (a user or password with an unencoded "/", "?" or "#"?)`;
      warnings.push(`${source}: ${problem}`);
      return { ...candidate, value: shown, invalid: problem };
    }
    if (url.username === '' && url.password === '') return { ...candidate, value: value.replace(/\/+$/, '') };
    warnings.push(
      `${source}: the user and password in the URL are not used (the API key is sent as a header); leaving them out`,
    );
    url.username = '';
    url.password = '';
    return { ...candidate, value: url.href.replace(/\/+$/, '') };
  });
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    // Unparseable: reported by the caller as "not an http(s) URL".
    return undefined;
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

/** One server: same scheme, host (any loopback name counts as one), port and path. */
export function sameServer(a: string, b: string): boolean {
  return serverIdentity(a) === serverIdentity(b);
}

/** What names one server (`sameServer`): scheme, host (any loopback name as `loopback`), port, path; the text itself when it is no http(s) URL. */
export function serverIdentity(text: string): string {
  const url = parseUrl(text);
  if (url === undefined) return text;
  const host = LOOPBACK_NAMES.has(url.hostname) ? 'loopback' : url.hostname;
  return `${url.protocol}//${host}:${url.port || defaultPort(url)}${url.pathname.replace(/\/+$/, '')}`;
}

function defaultPort(url: URL): string {
  return url.protocol === 'https:' ? '443' : '80';
}
