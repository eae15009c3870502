/**
 * Contract §2.3 and §9.6: fs/ls parameters and entry shapes (agent output
 * has no name and empty file abstracts; original has name/mode/meta),
 * hidden files, recursion, limits; content/read as a string, 404 when
 * missing, offset/limit by lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;
const ls = (query: string) => api.get(`/api/v1/fs/ls?${query}`);

beforeAll(async () => {
  server = await startOvServer({
    seed: {
      user: 'u1',
      files: {
        'memories/profile.md': 'line0\nline1\nline2\nline3',
        'memories/preferences/u1/editor.md': { content: 'Helix', abstract: 'Editor: Helix' },
        'memories/preferences/u1/shell.md': 'fish',
        'memories/preferences/.abstract.md': 'What the user prefers',
        'memories/preferences/.hidden.md': 'secret',
      },
    },
  });
  api = clientFor(server.url, { 'X-OpenViking-User': 'u1' });
});
afterAll(() => server.close());

describe('fs/ls', () => {
  it('agent output: {uri,size,isDir,modTime,abstract} + rel_path when recursive; files get abstract ""', async () => {
    const res = await ls(
      'uri=viking://user/u1/memories/preferences&output=agent&recursive=true&abs_limit=512&node_limit=512',
    );
    const entries = res.json.result;
    expect(entries.map((e: { rel_path: string }) => e.rel_path)).toEqual(['u1', 'u1/editor.md', 'u1/shell.md']);
    const file = entries[1];
    expect(Object.keys(file).sort()).toEqual(['abstract', 'isDir', 'modTime', 'rel_path', 'size', 'uri']);
    expect(file).toMatchObject({
      uri: 'viking://user/u1/memories/preferences/u1/editor.md',
      isDir: false,
      abstract: '',
      size: 5,
    });
  });

  it('directories carry their .abstract.md in agent output, cut to abs_limit', async () => {
    const res = await ls('uri=viking://user/u1/memories&abs_limit=8');
    const dir = res.json.result.find((e: { uri: string }) => e.uri.endsWith('/preferences'));
    expect(dir).toMatchObject({ isDir: true, abstract: 'What the' });
    expect(dir.rel_path).toBeUndefined();
  });

  it('original output: {name,size,mode,modTime,isDir,meta,uri}', async () => {
    const res = await ls('uri=viking://user/u1/memories&output=original');
    expect(res.json.result.map((e: { name: string }) => e.name)).toEqual(['preferences', 'profile.md']);
    expect(Object.keys(res.json.result[1]).sort()).toEqual(['isDir', 'meta', 'modTime', 'mode', 'name', 'size', 'uri']);
  });

  it('hidden dotfiles only with show_all_hidden; node_limit (alias limit) truncates; simple gives URIs', async () => {
    const names = async (query: string) => (await ls(query)).json.result.map((e: { name: string }) => e.name);
    expect(await names('uri=viking://user/u1/memories/preferences&output=original')).toEqual(['u1']);
    expect(await names('uri=viking://user/u1/memories/preferences&output=original&show_all_hidden=true')).toEqual([
      '.abstract.md',
      '.hidden.md',
      'u1',
    ]);
    expect(
      await names('uri=viking://user/u1/memories/preferences&output=original&show_all_hidden=true&limit=1'),
    ).toEqual(['.abstract.md']);
    expect((await ls('uri=viking://user/u1/memories&simple=true')).json.result).toEqual([
      'viking://user/u1/memories/preferences',
      'viking://user/u1/memories/profile.md',
    ]);
  });

  it('uri is required; a missing directory is 404; bad booleans are 400', async () => {
    expect((await ls('recursive=true')).json.error.details.validation_errors[0].loc).toEqual(['query', 'uri']);
    expect((await ls('uri=viking://user/u1/nothing')).status).toBe(404);
    expect((await ls('uri=viking://user/u1/memories&recursive=maybe')).status).toBe(400);
  });

  it('recursive walks at most 3 levels', async () => {
    const res = await ls('uri=viking://user&recursive=true&output=original');
    const depths = res.json.result.map((e: { rel_path: string }) => e.rel_path.split('/').length);
    expect(Math.max(...depths)).toBe(3);
  });
});

describe('content/read', () => {
  it('returns the text as a string result', async () => {
    const res = await api.get('/api/v1/content/read?uri=viking://user/u1/memories/profile.md');
    expect(res.json).toMatchObject({ status: 'ok', result: 'line0\nline1\nline2\nline3', error: null });
  });

  it('offset and limit are in lines', async () => {
    const res = await api.get('/api/v1/content/read?uri=viking://user/u1/memories/profile.md&offset=1&limit=2');
    expect(res.json.result).toBe('line1\nline2');
  });

  it('missing file → 404 NOT_FOUND; non-viking URI → 400 INVALID_URI', async () => {
    const missing = await api.get('/api/v1/content/read?uri=viking://user/u1/memories/nope.md');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('NOT_FOUND');
    expect((await api.get('/api/v1/content/read?uri=/etc/passwd')).json.error.code).toBe('INVALID_URI');
  });

  it('abstract and overview routes return strings', async () => {
    expect(
      (await api.get('/api/v1/content/abstract?uri=viking://user/u1/memories/preferences/u1/editor.md')).json.result,
    ).toBe('Editor: Helix');
    expect(
      (await api.get('/api/v1/content/overview?uri=viking://user/u1/memories/preferences/u1/editor.md')).json.result,
    ).toBe('Helix');
  });
});
