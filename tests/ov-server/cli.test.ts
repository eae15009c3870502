/**
 * `npm run dev:server`: the CLI starts the server with the chosen auth mode
 * and a seeded demo user, and prints its URL.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clientFor } from './http-client.js';

const CLI = fileURLToPath(new URL('../support/ov-server/cli.ts', import.meta.url));

describe('dev server CLI', () => {
  it('--port 0 --auth api_key: prints the URL and serves the demo user with the demo key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--auth', 'api_key'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`cli exited ${code}: ${out}`)));
      });
      const api = clientFor(url, { Authorization: 'Bearer demo-user-key' });
      expect((await api.get('/health')).json).toMatchObject({ auth_mode: 'api_key', user_id: 'demo' });
      const profile = await api.get('/api/v1/content/read?uri=viking://~/memories/profile.md');
      expect(profile.json.result).toContain('Demo developer');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
