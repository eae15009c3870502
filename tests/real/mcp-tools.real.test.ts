/**
 * Every `mcp__openviking__*` tool, called through the plugin's MCP server
 * (servers/mcp-proxy.mjs, started as the hosts start it) against the REAL
 * OpenViking server in api_key mode, as a user of an account made through
 * the admin API whose user key is in `~/.openviking/ovcli.conf` (README
 * Quick start). 0.5.2 offers 24 tools where the double offers 15 (F28); the
 * proxy passes the server's list through (D39), so this file proves:
 * - the proxy offers exactly what the server's own `/mcp` offers, and every
 *   tool the plugin's skill, commands and guard name is among them;
 * - each of those tools does its job for real through the proxy (files,
 *   search, memory, resources, the account's ACLs, the credential store),
 *   checked by its effect on the server, never by its wording alone;
 * - no listed tool is left uncalled (a tool a newer server adds fails here
 *   until it is proven or decided on).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createUser, type UserKey } from '../support/real-server/admin.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { waitFor } from '../support/wait.js';
import { settledTask, uniqueUser } from './support/http.js';
import { connectPluginMcp, connectServerMcp, type PluginMcp, type ToolAnswer } from './support/mcp.js';
import { providerRequests, sharedServers } from './support/servers.js';
import { createRealWorld, type RealWorld } from './support/world.js';

const { keyed } = sharedServers();

let owner: UserKey;
let colleague: UserKey;
let world: RealWorld;
let mcp: PluginMcp;
let listed: string[];
const called = new Set<string>();
const fact = 'the heron backups run on the third of every month';
/** Called first: its extraction (~10 s of phase 2) runs while the other tools are checked. */
let remembered: Promise<ToolAnswer>;

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  called.add(name);
  return mcp.call(name, args);
}

beforeAll(async () => {
  const account = uniqueUser('mcp');
  owner = await createAccount(keyed, account, 'owner');
  colleague = await createUser(keyed, account, 'colleague');
  world = createRealWorld({ url: keyed.url, identity: owner });
  mcp = await connectPluginMcp({ home: world.home, workspace: world.workspace });
  listed = (await mcp.client.listTools()).tools.map((tool) => tool.name);
  remembered = call('remember', { messages: [{ role: 'user', content: `Remember: ${fact}.` }] });
  await remembered;
});

afterAll(async () => {
  await mcp?.close();
  await world?.dispose();
});

const notes = () => `viking://user/${owner.user}/memories/notes`;

describe("the plugin's MCP tools on the real server", () => {
  it("offers exactly the server's own tools, among them every tool the plugin's texts name", async () => {
    const direct = await connectServerMcp(keyed.url, world.speaker);
    const own = (await direct.listTools()).tools.map((tool) => tool.name);
    await direct.close();
    expect(listed).toEqual(own);
    const texts = ['skills/openviking-memory/SKILL.md', 'commands/remember.md', 'commands/forget.md']
      .map((file) => readFileSync(join(REPO_ROOT, file), 'utf8'))
      .join('\n');
    const named = new Set([...texts.matchAll(/mcp__openviking__([a-z_]+)/g)].map((match) => match[1]!));
    expect([...named].filter((tool) => !listed.includes(tool))).toEqual([]);
    expect(named.size).toBeGreaterThanOrEqual(10);
  });

  it('health, write, edit, read, list, tree, glob, grep, download and forget work on a memory file', async () => {
    expect((await call('health')).text).toContain('OpenViking is healthy');
    const uri = `${notes()}/kestrel.md`;
    const wrote = await call('write', {
      uri,
      content: 'The kestrel runbook says MARK-WREN-11.',
      mode: 'create',
      wait: true,
    });
    expect(wrote.isError, wrote.text).toBe(false);
    expect(
      (await call('edit', { uri, old_string: 'MARK-WREN-11', new_string: 'MARK-WREN-12', wait: true })).isError,
    ).toBe(false);
    expect((await call('read', { uris: [uri] })).text).toBe('The kestrel runbook says MARK-WREN-12.');
    expect((await call('list', { uri: notes() })).text).toContain('kestrel.md');
    expect((await call('tree', { uri: `viking://user/${owner.user}/memories`, level_limit: 3 })).text).toContain(
      'kestrel.md',
    );
    expect((await call('glob', { pattern: '**/*.md', uri: notes() })).text).toContain(uri);
    expect((await call('grep', { uri: notes(), pattern: ['MARK-WREN-12'] })).text).toContain(uri);
    const link = /curl -fL -o \S+ '([^']+)'/.exec((await call('download', { uri })).text)?.[1];
    expect(link).toBeDefined();
    // The original bytes: a memory file as stored, the server's field block after the text.
    expect(await (await fetch(link!)).text()).toMatch(/^The kestrel runbook says MARK-WREN-12\.\n/);
    expect((await call('forget', { uri })).text).toContain(`Deleted: ${uri}`);
    expect((await call('read', { uris: [uri] })).text).not.toContain('MARK-WREN-12');
  });

  it('find and search (list and context mode) find what write stored', async () => {
    const uri = `${notes()}/osprey.md`;
    await call('write', {
      uri,
      content: 'The osprey cluster drains its queue at midnight.',
      mode: 'create',
      wait: true,
    });
    const query = 'when does the osprey cluster drain its queue';
    expect((await call('find', { query, target_uri: notes() })).text).toContain(uri);
    expect((await call('search', { query, limit: 5 })).text).toContain(uri);
    expect((await call('search', { query, mode: 'context' })).text).toContain(`uri="${uri}"`);
  });

  it('add_resource ingests a local file through the upload it answers; list_watches and cancel_watch answer for none', async () => {
    const local = join(world.workspace, 'runbook.md');
    const body = 'Kestrel restarts with systemctl restart kestrel (RUNBOOK-MARK-5).';
    await import('node:fs/promises').then((fs) => fs.writeFile(local, body));
    const answer = await call('add_resource', {
      path: local,
      parent: 'viking://resources/docs',
      description: 'the kestrel runbook',
    });
    const upload = /(http:\/\/\S+\/api\/v1\/resources\/temp_upload\?token=\S+)/.exec(answer.text)?.[1];
    expect(upload, answer.text).toBeDefined();
    const form = new FormData();
    form.append('file', new Blob([body]), 'runbook.md');
    const posted = await fetch(upload!, { method: 'POST', body: form });
    expect(posted.status, await posted.text()).toBeLessThan(300);
    await waitFor(
      async () =>
        (await call('grep', { uri: 'viking://resources/docs', pattern: ['RUNBOOK-MARK-5'] })).text.includes('runbook'),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
        what: 'the uploaded runbook under viking://resources/docs',
      },
    );
    expect((await call('list_watches')).text).toBe('No watch tasks.');
    const cancel = await call('cancel_watch', { to_uri: 'viking://resources/docs' });
    expect(cancel).toMatchObject({ isError: true, text: 'No watch task found for viking://resources/docs' });
  });

  it("add_skill installs a skill; list_users, list_groups, get_acl and set_acl manage the account's sharing", async () => {
    const skill = await call('add_skill', {
      data: '---\nname: kestrel-deploy\ndescription: Deploys kestrel\n---\n\n# Deploy\n\nRun make deploy.<private> SKILL-PRIVATE-9</private>',
    });
    const skillUri = /Skill added: (viking:\/\/\S+)/.exec(skill.text)?.[1];
    expect(skillUri, skill.text).toBeDefined();
    const installed = (await call('read', { uris: [`${skillUri}/SKILL.md`] })).text;
    expect(installed).toContain('Run make deploy.');
    expect(installed, 'the outbound filter covers add_skill (D39)').not.toContain('SKILL-PRIVATE-9');
    expect((await call('list_users')).structured).toMatchObject({
      users: expect.arrayContaining([{ user_id: colleague.user }]),
    });
    expect((await call('list_groups')).structured).toEqual({ groups: [] });
    const shared = 'viking://resources/shared/plan.md';
    await call('write', { uri: shared, content: 'The shared plan.', mode: 'create', wait: true });
    const grant = { entries: [{ principal: `user:${colleague.user}`, level: 'write' }] };
    expect((await call('set_acl', { uri: shared, acl: grant })).isError).toBe(false);
    expect((await call('get_acl', { uri: shared })).structured).toMatchObject({ direct_entries: grant.entries });
  });

  it('privacy_upsert stores a credential, privacy_tree lists it, privacy_resolve gives it back', async () => {
    const stored = await call('privacy_upsert', {
      category: 'credential',
      target_key: 'github',
      values: { pat: 'probe-pat-7781' },
    });
    const reference = (stored.structured?.fields as Array<{ reference: string }> | undefined)?.[0]?.reference;
    expect(reference, stored.text).toMatch(/^\{\{ov_privacy:/);
    expect((await call('privacy_tree')).text).toContain(reference!);
    expect((await call('privacy_resolve', { reference })).structured).toMatchObject({ value: 'probe-pat-7781' });
  });

  it('remember hands the fact to the server, whose extraction writes the memory', async () => {
    const answer = await remembered;
    const taskId = /task_id=([0-9a-f-]+)/.exec(answer.text)?.[1];
    expect(taskId, answer.text).toBeDefined();
    const task = await settledTask(keyed.url, world.speaker, taskId!);
    expect(task, JSON.stringify(task)).toMatchObject({
      status: 'completed',
      result: { memories_extracted: { memory_write: 1 } },
    });
    expect(providerRequests(keyed, 'extraction').some((request) => JSON.stringify(request.body).includes(fact))).toBe(
      true,
    );
    const diff = JSON.parse((await call('read', { uris: [task.result.memory_diff_uri] })).text);
    const added = diff.operations.adds.map((add: { uri: string }) => add.uri);
    expect(added).toEqual([
      expect.stringMatching(
        new RegExp(`^viking://user/${owner.user}/memories/preferences/[^/]+/heron_backups_run\\.md$`),
      ),
    ]);
    expect((await call('read', { uris: added })).text).toContain(fact);
  });

  it('left no listed tool uncalled', () => {
    expect([...listed].filter((tool) => !called.has(tool))).toEqual([]);
  });
});
