import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeDeps } from '../../src/hook/nodeDeps.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { waitFor } from '../support/wait.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-deps-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function host(pluginRoot: string) {
  return {
    env: { PATH: process.env.PATH },
    cwd: sandbox,
    homeDir: sandbox,
    pluginRoot,
    execPath: process.execPath,
    pid: process.pid,
    platform: process.platform,
    loadSpawn: () => spawn,
    now: Date.now,
    log: createTestDeps().log,
  };
}

describe('createNodeDeps', () => {
  it('spawnDetached runs node <pluginRoot>/scripts/hook.cjs <args> with the whole stdin, detached', async () => {
    const root = join(sandbox, 'plugin');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    const out = join(sandbox, 'child.json');
    // A stand-in hook entry (CommonJS, D38) that records its argv and stdin.
    const standIn = [
      "const { writeFileSync } = require('node:fs');",
      "let data = '';",
      "process.stdin.on('data', (c) => (data += c)).on('end', () =>",
      `  writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), len: data.length, tail: data.slice(-5) })));`,
    ].join('\n');
    writeFileSync(join(root, HOOK_ENTRY), standIn);
    const { deps, settle } = createNodeDeps(host(root));
    const payload = `${'x'.repeat(300_000)}tail!`;
    expect(deps.spawnDetached(['worker', 'capture'], payload)).toBe(true);
    await settle(5_000);
    await waitFor(() => {
      try {
        return readFileSync(out, 'utf8').length > 0;
      } catch {
        return false;
      }
    });
    const seen = JSON.parse(readFileSync(out, 'utf8')) as { argv: string[]; len: number; tail: string };
    expect(seen.argv).toEqual(['worker', 'capture']);
    expect(seen.len).toBe(payload.length);
    expect(seen.tail).toBe('tail!');
  });

  it('afterAnswer runs after the answer\u2019s whole promise chain, and settle() waits for it; a failing task is logged', async () => {
    const order: string[] = [];
    const logged = createTestDeps();
    const { deps, settle } = createNodeDeps({ ...host(sandbox), log: logged.log });
    const stage = async (): Promise<string> => {
      deps.afterAnswer(() => void order.push('status written'));
      deps.afterAnswer(() => {
        throw new Error('disk full');
      });
      await Promise.resolve();
      await Promise.resolve();
      return 'answer';
    };
    order.push(await stage());
    expect(order).toEqual(['answer']);
    await settle(1_000);
    expect(order).toEqual(['answer', 'status written']);
    expect(logged.logged).toMatchObject([
      { level: 'warn', message: 'deferred work failed', fields: { error: 'disk full' } },
    ]);
  });

  it('spawnDetached reports false when the spawn fails synchronously', () => {
    const { deps } = createNodeDeps({ ...host(sandbox), execPath: '' });
    expect(deps.spawnDetached(['x'], '')).toBe(false);
  });

  it('http goes through the node:http transport (imported on the first request)', async () => {
    const server = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const { deps } = createNodeDeps(host(sandbox));
      const response = await deps.http({
        method: 'GET',
        url: `http://127.0.0.1:${port}/health`,
        headers: {},
        timeoutMs: 2_000,
      });
      expect(response).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    } finally {
      server.close();
    }
  });
});
