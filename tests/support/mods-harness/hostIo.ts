/**
 * The host's own I/O for a module harness session (index.ts): `$.fs`,
 * `$.http.fetch` and `$.clock.sleep` answered by this machine's real files,
 * sockets and timers, the way Claude Code 2.1.332 answers them (FC17, FC19,
 * the declarations): paths absolute; a missing path rejects with a
 * message ending `failed: ENOENT: …`; `stat` follows links, `resolve` adds
 * `realPath` (absent for a link that leads nowhere, whose kind is `other`);
 * a ranged `read` takes only a regular file; `write` makes missing folders
 * 0700 and the file 0600; `fetch` answers `{ status, ok, headers, text }` and
 * rejects `failed: ECONNREFUSED: …` when nothing listens; `sleep` rejects
 * when its signal aborts. Each answer is still recorded by the harness.
 *
 * @module
 */
import { chmod, lstat, mkdir, open, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ModSession } from './index.js';

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

function failed(op: string, path: string, error: unknown): Error {
  const code = (error as { code?: string }).code ?? 'EIO';
  return new Error(`openviking: $.fs.${op}(${path}) failed: ${code}: ${(error as Error).message}`);
}

async function statOf(path: string, options?: { resolve?: boolean }) {
  let link;
  try {
    link = await lstat(path);
  } catch (error) {
    throw failed('stat', path, error);
  }
  const target = await stat(path).catch(() => undefined);
  if (target === undefined)
    return { kind: 'other' as const, size: link.size, mtimeMs: link.mtimeMs, isLink: link.isSymbolicLink() };
  const kind = target.isFile() ? ('file' as const) : target.isDirectory() ? ('dir' as const) : ('other' as const);
  const realPath = options?.resolve === true ? await realpath(path).catch(() => undefined) : undefined;
  return {
    kind,
    size: target.size,
    mtimeMs: target.mtimeMs,
    isLink: link.isSymbolicLink(),
    ...(realPath !== undefined ? { realPath } : {}),
  };
}

async function readOf(path: string, options?: { offset?: number; length?: number }): Promise<string> {
  const ranged = options?.offset !== undefined || options?.length !== undefined;
  let handle;
  try {
    if (ranged && !(await stat(path)).isFile())
      throw Object.assign(new Error('a range reads only a regular file'), { code: 'EINVAL' });
    handle = await open(path, 'r');
    const length = Math.min(options?.length ?? MAX_ANSWER_BYTES + 1, MAX_ANSWER_BYTES + 1);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, options?.offset ?? 0);
    if (!ranged && bytesRead > MAX_ANSWER_BYTES)
      throw Object.assign(new Error('the answer would be over 4 MiB'), { code: 'EFBIG' });
    return buffer.toString('utf8', 0, bytesRead);
  } catch (error) {
    throw failed('read', path, error);
  } finally {
    await handle?.close();
  }
}

async function writeOf(path: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, text, { mode: 0o600 });
    await chmod(path, 0o600);
  } catch (error) {
    throw failed('write', path, error);
  }
}

async function listOf(path: string) {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return await Promise.all(
      entries.map(async (entry) => {
        const kind = entry.isFile() ? ('file' as const) : entry.isDirectory() ? ('dir' as const) : ('other' as const);
        const facts = kind === 'file' ? await stat(`${path}/${entry.name}`).catch(() => undefined) : undefined;
        return {
          name: entry.name,
          kind,
          size: facts?.size ?? 0,
          mtimeMs: facts?.mtimeMs ?? 0,
          isLink: entry.isSymbolicLink(),
        };
      }),
    );
  } catch (error) {
    throw failed('list', path, error);
  }
}

async function fetchOf(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init?.method ?? 'GET',
      ...(init?.headers ? { headers: init.headers } : {}),
      ...(init?.body !== undefined ? { body: init.body } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `openviking: $.http.fetch(${url}) failed: ${cause?.code ?? 'EIO'}: ${cause?.message ?? (error as Error).message}`,
      { cause: error },
    );
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  return { status: response.status, ok: response.ok, headers, text: await response.text() };
}

/** `$.clock.sleep` as the host answers it (for a test's stub that answers only some sleeps so). */
export function hostSleep(ms: number, options?: { signal?: AbortSignal }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (options?.signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    options?.signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

/** Answers `$.fs`, `$.http.fetch` (unless `fetch: false`) and `$.clock.sleep` with this machine's. */
export function useHostIo(session: ModSession, options: { fetch?: boolean } = {}): void {
  session.stub('fs.stat', statOf);
  session.stub('fs.read', readOf);
  session.stub('fs.write', writeOf);
  session.stub('fs.list', listOf);
  session.stub('fs.exists', (path: string) =>
    lstat(path).then(
      () => true,
      () => false,
    ),
  );
  session.stub('clock.sleep', hostSleep);
  if (options.fetch !== false) session.stub('http.fetch', fetchOf);
}
