/**
 * The simulator itself, against a throwaway plugin whose hooks echo what
 * they received: substitution, env, cwd, matchers, parallelism, timeouts,
 * and payloads shaped like the real host's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-sim-'));
const pluginRoot = join(sandbox, 'plugin');
const workspace = join(sandbox, 'ws');
const home = join(sandbox, 'home');
mkdirSync(join(pluginRoot, 'hooks'), { recursive: true });
mkdirSync(workspace, { recursive: true });
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

const echoEnv = `node -e 'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>console.log(JSON.stringify({hookSpecificOutput:{additionalContext:JSON.stringify({cwd:process.cwd(),stdin:d,env:Object.fromEntries(Object.entries(process.env).filter(([k])=>/PLUGIN|PROJECT/.test(k)))})}})))'`;
writeFileSync(
  join(pluginRoot, 'hooks', 'hooks.json'),
  JSON.stringify({
    hooks: {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: echoEnv }] },
        { hooks: [{ type: 'command', command: `cat "\${CLAUDE_PLUGIN_ROOT}/hooks/ctx.json"` }] },
      ],
      PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'echo blocked >&2; exit 2' }] }],
      Stop: [
        { hooks: [{ type: 'command', command: 'sleep 5', timeout: 0.3 }] },
        { hooks: [{ type: 'command', command: 'sleep 0.3; exit 1' }] },
      ],
    },
  }),
);
writeFileSync(join(pluginRoot, 'hooks', 'ctx.json'), '{"hookSpecificOutput":{"additionalContext":"LAST"}}');

describe('host simulator', () => {
  it('substitutes the plugin root, sets the host env and cwd, sends the exact JSON, and merges like CodeBuddy', async () => {
    const sim = createHostSim({ pluginRoot, home, workspace, pluginData: join(sandbox, 'data') });
    const payload = { hook_event_name: 'UserPromptSubmit', prompt: 'hi' };
    const result = await sim.fire('UserPromptSubmit', payload);
    expect(result.hooks.map((h) => h.command)[1]).toBe(`cat "${pluginRoot}/hooks/ctx.json"`);
    const seen = JSON.parse(result.merged.additionalContext[0] ?? '{}') as {
      cwd: string;
      stdin: string;
      env: Record<string, string>;
    };
    expect(seen.cwd).toBe(workspace);
    expect(seen.stdin).toBe(JSON.stringify(payload));
    expect(seen.env).toEqual({
      CODEBUDDY_PLUGIN_ROOT: pluginRoot,
      CLAUDE_PLUGIN_ROOT: pluginRoot,
      CODEBUDDY_PROJECT_DIR: workspace,
      CLAUDE_PROJECT_DIR: workspace,
      CODEBUDDY_PLUGIN_DATA: join(sandbox, 'data'),
      CLAUDE_PLUGIN_DATA: join(sandbox, 'data'),
    });
    expect(result.merged.additionalContext[1]).toBe('LAST');
    expect(result.merged.hostAdditionalContext).toBe('LAST');
  });

  it('never exports the plugin data variables unless asked (2.117)', async () => {
    const sim = createHostSim({ pluginRoot, home, workspace });
    const result = await sim.fire('UserPromptSubmit', {});
    expect(Object.keys((JSON.parse(result.merged.additionalContext[0] ?? '{}') as { env: object }).env)).not.toContain(
      'CODEBUDDY_PLUGIN_DATA',
    );
  });

  it('matches tool names as unanchored regexes and reads exit 2 as a block', async () => {
    const sim = createHostSim({ pluginRoot, home, workspace });
    expect((await sim.fire('PreToolUse', { tool_name: 'NotebookEdit' })).merged).toMatchObject({
      decision: 'deny',
      reason: 'blocked',
    });
    expect((await sim.fire('PreToolUse', { tool_name: 'Read' })).hooks).toHaveLength(0);
    const claude = createHostSim({ pluginRoot, home, workspace, matcherMode: 'claude' });
    expect((await claude.fire('PreToolUse', { tool_name: 'NotebookEdit' })).hooks).toHaveLength(0);
  });

  it('kills a hook at its timeout (a block on CodeBuddy) and runs hooks in parallel', async () => {
    const sim = createHostSim({ pluginRoot, home, workspace });
    const result = await sim.fire('Stop', {});
    expect(result.timedOut).toBe(true);
    expect(result.outputs[0]).toMatchObject({
      timedOut: true,
      decision: 'block',
      reason: 'Hook timed out after 300ms',
    });
    expect(result.outputs[1]).toMatchObject({ status: 'non-blocking', exitCode: 1 });
    expect(result.durationMs).toBeLessThan(2_500);
  });
});

describe('payload builders', () => {
  const fixture = readFileSync(new URL('../protocol/fixtures/stdin-2.117.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const p = createPayloads({
    workspace: '/home/dev/runs/B/ws',
    configDir: '/home/dev/runs/B/home/.codebuddy',
    sessionId: 'sid',
  });

  it('2.117 shapes have the sampled keys in the sampled order', () => {
    const built: Record<string, unknown>[] = [
      p.sessionStart('startup'),
      p.sessionStart('compact'),
      p.userPromptSubmit('x', 1),
      p.userPromptSubmit('x', 2),
      p.preToolUse('Read', {}),
      p.stop(),
      p.subagentStart('agent-1'),
      p.subagentStop('agent-1'),
    ];
    const sampledKeySets = new Set(fixture.map((f) => Object.keys(f).join(',')));
    for (const payload of built)
      expect(sampledKeySets.has(Object.keys(payload).join(',')), Object.keys(payload).join(',')).toBe(true);
  });

  it('uses the host transcript layout and the 2.163 additions', () => {
    expect(p.transcriptPath).toBe('/home/dev/runs/B/home/.codebuddy/projects/home-dev-runs-B-ws/sid.jsonl');
    expect(p.subagentStop('agent-9').agent_transcript_path).toBe(
      '/home/dev/runs/B/home/.codebuddy/projects/home-dev-runs-B-ws/sid/subagents/agent-9.jsonl',
    );
    const v163 = createPayloads({ workspace: '/w', configDir: '/c', hostVersion: '2.163' });
    expect(v163.userPromptSubmit('x')).toMatchObject({ is_internal_continuation: false, version: '2.163.0' });
    expect(v163.sessionStart()).not.toHaveProperty('cwd');
    expect(v163.stop()).toHaveProperty('is_truncation_recovery', false);
  });
});
