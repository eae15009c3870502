/**
 * `npm run stand-in-server`: the test server as a standalone process on
 * 127.0.0.1:1933 (or `--port N`), a local stand-in for OpenViking to try the
 * plugin with (keyword search, no models), auth from `--auth dev|api_key|trusted`,
 * with a small seeded demo user so a real CodeBuddy session has something
 * to recall. In api_key mode the demo key is `demo-user-key` (user `demo`)
 * and the root key `demo-root-key`.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { startOvServer } from './index.js';
import type { AuthOptions, SeedSpec } from './types.js';

const DEMO_USER = 'demo';

const DEMO_SEED: SeedSpec = {
  user: DEMO_USER,
  files: {
    'memories/profile.md':
      '# Profile\n\nDemo developer. Works in TypeScript on a CodeBuddy memory plugin.\nPrefers small files and tests against real sockets.',
    'memories/preferences/demo/editor.md': {
      content: 'Uses Neovim with LSP; tabs are two spaces.',
      abstract: 'Editor preference: Neovim, two-space indent',
    },
    'memories/preferences/demo/testing.md': {
      content: 'Prefers vitest with real processes over module mocks.',
      abstract: 'Testing preference: vitest, no mocks',
    },
    'memories/entities/demo/openviking.md': {
      content: 'OpenViking is the memory server; default port 1933.',
      abstract: 'OpenViking memory server, port 1933',
    },
    'memories/events/demo/first-session.md': {
      content: 'Set up the OpenViking test server for the plugin test suite.',
      abstract: 'Set up the OpenViking test server',
    },
  },
};

function authFor(mode: string): AuthOptions {
  if (mode === 'dev') return { mode: 'dev' };
  const keys = { 'demo-user-key': { account: 'default', user: DEMO_USER, role: 'user' as const } };
  if (mode === 'api_key') return { mode: 'api_key', rootKey: 'demo-root-key', keys };
  if (mode === 'trusted') return { mode: 'trusted' };
  throw new Error(`--auth must be dev, api_key or trusted (got ${mode})`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '1933' }, auth: { type: 'string', default: 'dev' } },
  });
  const server = await startOvServer({
    port: Number(values.port),
    auth: authFor(values.auth ?? 'dev'),
    seed: DEMO_SEED,
  });
  process.stdout.write(
    `OpenViking stand-in (the plugin's test server: keyword search, no models; not OpenViking), ${values.auth} auth, listening on ${server.url}\n`,
  );
  if (values.auth === 'api_key') process.stdout.write('user key: demo-user-key (user demo), root key: demo-root-key\n');
  else
    process.stdout.write(`the demo memories are user ${DEMO_USER}'s: set OPENVIKING_USER=${DEMO_USER} to see them\n`);
  const shutdown = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
