/**
 * `npm run openviking`: the real OpenViking server in the foreground, as the
 * suite runs it (the fake model provider, a fresh workspace, a free loopback
 * port), for trying the plugin against the real thing without model keys.
 * Prints the URL and, in `api_key` mode, where a user key made through the
 * admin API was written (0600; the root key is refused on data routes, and a
 * key is never printed); Ctrl-C stops both.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount } from './admin.js';
import { startRealServer } from './index.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { auth: { type: 'string', default: 'dev' } } });
  const auth = values.auth === 'api_key' ? 'api_key' : values.auth === 'dev' ? 'dev' : undefined;
  if (auth === undefined) throw new Error(`--auth must be dev or api_key (got ${values.auth})`);
  const server = await startRealServer({ name: 'cli', auth });
  process.stdout.write(`openviking-server ${server.version} at ${server.url} (${auth} mode; fake model provider)\n`);
  if (auth === 'api_key') {
    // The server creates its `default` account itself: the key is for an account of our own.
    const user = await createAccount(server, 'local', 'me').catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    const keyFile = join(server.workspace, 'user-key');
    writeFileSync(keyFile, `${user.key}\n`, { mode: 0o600 });
    process.stdout.write(`user key of account "local", user "me" (ovcli.conf's api_key): in ${keyFile}\n`);
  }
  process.stdout.write(`workspace: ${server.workspace}\nCtrl-C stops it.\n`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
