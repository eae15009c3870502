/**
 * The guard against the REAL OpenViking server: a file tool the model aims
 * at a `viking://` URI (Read, Glob, Grep, Write; Bash is never guessed at, guardRule.ts) is denied by the
 * bundled PreToolUse hook exactly as CodeBuddy runs it, and the call the
 * deny reason steers to (`DeferExecuteTool` with the MCP tool's name and
 * params) is then made, as written, through the plugin's MCP server: the
 * real server answers it with the content the model wanted. So the steering
 * leads somewhere real on the server users run (its tools and argument
 * shapes: `read` takes `uris` as one string or a list, `grep` a pattern
 * string or a list; F28), which the double's tool set could not show.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ov } from './support/http.js';
import { connectPluginMcp, type PluginMcp } from './support/mcp.js';
import { sharedServers } from './support/servers.js';
import { createRealWorld, devIdentity, type HostSession, type RealWorld } from './support/world.js';

const { dev } = sharedServers();

let world: RealWorld;
let session: HostSession;
let mcp: PluginMcp;
let memories: string;

beforeAll(async () => {
  world = createRealWorld({ url: dev.url, identity: devIdentity('guard') });
  session = world.session();
  memories = `viking://user/${world.user}/memories`;
  const wrote = await ov(dev.url, world.speaker, '/api/v1/content/write', {
    uri: `${memories}/notes/wren.md`,
    content: 'The wren service listens on port 8443 (GUARD-MARK-3).',
    mode: 'create',
    wait: true,
  });
  expect(wrote.status, JSON.stringify(wrote.error)).toBe('ok');
  mcp = await connectPluginMcp({ home: world.home, workspace: world.workspace, env: world.sim.env });
});

afterAll(async () => {
  await mcp?.close();
  await world?.dispose();
});

/** The `DeferExecuteTool {…}` call a deny reason names. */
function steeredCall(reason: string): { toolName: string; params: Record<string, unknown> } {
  const json = /DeferExecuteTool (\{.*\})\n/.exec(reason)?.[1];
  if (json === undefined) throw new Error(`no DeferExecuteTool call in: ${reason}`);
  return JSON.parse(json) as { toolName: string; params: Record<string, unknown> };
}

describe('the guard on the real server', () => {
  const cases: ReadonlyArray<[tool: string, input: () => Record<string, unknown>, steeredTo: string]> = [
    ['Read', () => ({ file_path: `${memories}/notes/wren.md` }), 'read'],
    ['Glob', () => ({ pattern: '**/*.md', path: `${memories}/notes` }), 'glob'],
    ['Grep', () => ({ pattern: 'GUARD-MARK-3', path: `${memories}/notes` }), 'grep'],
  ];

  it.each(cases)(
    'denies %s of a viking:// URI and steers to a call the server answers',
    async (tool, input, steeredTo) => {
      const fired = await session.fire('PreToolUse', session.p.preToolUse(tool, input()));
      expect(fired.timedOut).toBe(false);
      expect(fired.merged.decision).toBe('deny');
      const reason = String(fired.merged.reason ?? '');
      const steered = steeredCall(reason);
      expect(steered.toolName).toBe(`mcp__openviking__${steeredTo}`);
      const answer = await mcp.call(steered.toolName.replace('mcp__openviking__', ''), steered.params);
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toContain(steeredTo === 'glob' ? `${memories}/notes/wren.md` : 'GUARD-MARK-3');
    },
  );

  it('denies a Write into viking:// and leaves the stored file as it was', async () => {
    const uri = `${memories}/notes/wren.md`;
    const fired = await session.fire(
      'PreToolUse',
      session.p.preToolUse('Write', { file_path: uri, content: 'overwritten' }),
    );
    expect(fired.merged.decision).toBe('deny');
    expect(String(fired.merged.reason)).toContain('mcp__openviking__');
    const read = await ov<string>(dev.url, world.speaker, `/api/v1/content/read?uri=${encodeURIComponent(uri)}`);
    expect(read.result).toContain('GUARD-MARK-3');
  });

  it('lets a Read of a local file through without a word', async () => {
    const fired = await session.fire(
      'PreToolUse',
      session.p.preToolUse('Read', { file_path: `${world.workspace}/README.md` }),
    );
    expect(fired.outputs[0]?.stdout ?? '').toBe('');
    expect(fired.merged.decision).toBe('none');
  });
});
