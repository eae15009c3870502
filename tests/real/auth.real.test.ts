/**
 * Auth as users run it, against the REAL OpenViking server in api_key mode:
 * an operator makes an account through the admin API (root key), the user
 * puts the USER key it answered into `~/.openviking/ovcli.conf` (README
 * Quick start), and the bundled hooks, the MCP server and doctor all speak
 * as that user. It proves:
 * - doctor passes Server, Identity (the account, user and role the server
 *   resolves the key to) and the MCP endpoint;
 * - a captured turn lands in that user's session, and recall finds that
 *   user's memory, while another account's user gets none of it (api_key
 *   mode scopes search; dev mode does not, F31);
 * - a wrong key: doctor names the refused key, where it is configured and
 *   the fix (0.5.2 refuses it even on /health, F30), the session start says
 *   memory is off, and the turn captured meanwhile is kept as a dead letter
 *   with its text (D18), never sent;
 * - the server's root key given to the plugin: doctor's Identity says it is
 *   the root key and how to get a user key, the start says memory is off.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type UserKey } from '../support/real-server/admin.js';
import { runDoctor } from './support/doctor.js';
import { ov, uniqueUser } from './support/http.js';
import { sharedServers } from './support/servers.js';
import { storedWhen } from './support/stored.js';
import { createRealWorld, type RealWorld } from './support/world.js';

const { keyed } = sharedServers();

let owner: UserKey;
let stranger: UserKey;
const worlds: RealWorld[] = [];

function world(identity: { key: string; user: string; account: string }): RealWorld {
  const made = createRealWorld({ url: keyed.url, identity });
  worlds.push(made);
  return made;
}

beforeAll(async () => {
  [owner, stranger] = await Promise.all([
    createAccount(keyed, uniqueUser('auth'), 'owner'),
    createAccount(keyed, uniqueUser('auth-other'), 'owner'),
  ]);
});

afterAll(async () => {
  await Promise.all(worlds.map((made) => made.dispose()));
});

/** The start's line for the user (CodeBuddy shows `systemMessage`). */
async function startNotice(made: RealWorld): Promise<string> {
  const session = made.session();
  const start = await session.fire('SessionStart', session.p.sessionStart());
  return start.merged.systemMessages.join('\n');
}

describe('a user key from the admin API', () => {
  it("passes doctor's Server, Identity and MCP checks as the key's account and user", async () => {
    const { checks, report } = await runDoctor(world(owner));
    expect(checks.get('Server'), report).toMatchObject({ status: 'PASS' });
    expect(checks.get('Server')!.text).toContain('version: 0.5.2, auth mode: api_key');
    expect(checks.get('Identity'), report).toMatchObject({ status: 'PASS' });
    expect(checks.get('Identity')!.text).toContain(`account: ${owner.account}, user: ${owner.user}, role: admin`);
    expect(checks.get('Identity')!.text).toContain('memory APIs: usable');
    expect(checks.get('MCP endpoint'), report).toMatchObject({ status: 'PASS' });
  });

  it("captures into the user's own session and recalls the user's memory, not another account's", async () => {
    const mine = world(owner);
    const memory = `viking://user/${owner.user}/memories/preferences/${owner.user}/lynx_gateway_timeouts.md`;
    const wrote = await ov(keyed.url, mine.speaker, '/api/v1/content/write', {
      uri: memory,
      content: '- the lynx gateway times out idle streams after 90 seconds',
      mode: 'create',
      wait: true,
    });
    expect(wrote.status, JSON.stringify(wrote.error)).toBe('ok');
    const session = mine.session();
    session.turn('Tune the lynx gateway timeouts.', 'Raised them to 90 seconds.');
    await session.fire('Stop', session.p.stop('Raised them to 90 seconds.'));
    const stored = await storedWhen(keyed.url, mine.speaker, session.ovId, (s) => s.totalMessages >= 2, 'the turn');
    expect(stored.messages.map((message) => message.text)).toEqual([
      'Tune the lynx gateway timeouts.',
      'Raised them to 90 seconds.',
    ]);
    const record = await ov(keyed.url, mine.speaker, `/api/v1/sessions/${session.ovId}`);
    expect(record.result).toMatchObject({ created_by_account_id: owner.account, created_by_user_id: owner.user });
    const prompt = 'After how many seconds does the lynx gateway time out idle streams?';
    const recalled = await session.fire('UserPromptSubmit', session.p.userPromptSubmit(prompt, 2));
    expect(recalled.merged.hostAdditionalContext ?? '').toContain(`<memory uri="${memory}"`);
    const other = world(stranger).session();
    const theirs = await other.fire('UserPromptSubmit', other.p.userPromptSubmit(prompt));
    expect(theirs.merged.hostAdditionalContext ?? '').not.toContain(memory);
  });
});

describe('a key the plugin should not have', () => {
  it('a wrong key: doctor names it and the fix, the start says memory is off, the turn waits as a dead letter', async () => {
    const wrong = world({ key: 'not-a-key-of-this-server-7731', user: 'owner', account: owner.account });
    const { checks, report } = await runDoctor(wrong);
    const server = checks.get('Server');
    expect(server, report).toMatchObject({ status: 'FAIL' });
    expect(server!.text).toContain('refused the API key ****7731 (HTTP 401 UNAUTHENTICATED: Invalid API key)');
    expect(server!.text).toContain(
      'fix: Replace the key from "api_key" in ~/.openviking/ovcli.conf with a current user key',
    );
    expect(await startNotice(wrong)).toContain(
      `OpenViking memory is off: the server at ${keyed.url} refused the API key.`,
    );
    const session = wrong.session();
    session.turn('A turn said while the key was wrong (WRONG-KEY-TURN).', 'Answered.');
    await session.fire('Stop', session.p.stop('Answered.'));
    await wrong.settle();
    const deadDir = join(wrong.dataDir, 'queue', 'dead');
    const letters = readdirSync(deadDir).map((name) => readFileSync(join(deadDir, name), 'utf8'));
    expect(
      letters.some(
        (letter) => letter.includes('WRONG-KEY-TURN') && letter.includes('UNAUTHENTICATED: Invalid API key'),
      ),
    ).toBe(true);
    expect(readFileSync(join(wrong.home, 'debug.log'), 'utf8')).not.toContain('not-a-key-of-this-server-7731');
  });

  it("the server's root key: doctor's Identity says so and how to get a user key, the start says memory is off", async () => {
    const root = world({ key: keyed.rootKey!, user: 'default', account: 'default' });
    const { checks, report } = await runDoctor(root);
    const identity = checks.get('Identity');
    expect(identity, report).toMatchObject({ status: 'FAIL' });
    expect(identity!.text).toContain(
      'the API key is a ROOT key: OpenViking refuses it on memory APIs (403 PERMISSION_DENIED)',
    );
    expect(identity!.text).toContain("have one created through the server's admin API (/api/v1/admin)");
    expect(report).not.toContain(keyed.rootKey!);
    expect(await startNotice(root)).toContain(
      'OpenViking memory is off: the server refuses this key for memory (a root key?).',
    );
  });
});
