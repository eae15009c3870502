/**
 * Doctor's duplicate-registration and project checks (issue 17), run as
 * the user runs them: `node scripts/hook.mjs doctor --json` (built bundle)
 * with a sandboxed HOME. OpenViking hooks in the user's settings.json would
 * fire beside the plugin's; a user-scope `openviking` MCP server would list
 * the tools twice.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/doctor/types.js';
import { spawnHook } from '../support/spawn-hook.js';
import { checkOf, freshHome } from './support.js';

async function doctor(home: string, cwd = home, env: Record<string, string> = {}): Promise<DoctorReport> {
  const run = await spawnHook({
    args: ['doctor', '--json'],
    cwd,
    env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9', ...env },
    timeoutMs: 20_000,
  });
  return JSON.parse(run.stdout) as DoctorReport;
}

const hooksWith = (command: string) => ({
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }],
    Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'echo unrelated' }] }],
  },
});

describe('duplicate registrations', () => {
  it('pass on a clean HOME', async () => {
    expect(checkOf(await doctor(freshHome()), 'duplicates')).toMatchObject({ status: 'pass' });
  });

  it('warn on OpenViking hooks in ~/.codebuddy/settings.json or ~/.claude/settings.json, naming the file and event', async () => {
    // A copy of an older hooks.json names the ES shim, today's the CommonJS entry (D38).
    for (const [dir, entry] of [
      ['.codebuddy', 'hook.mjs'],
      ['.claude', 'hook.cjs'],
    ] as const) {
      const home = freshHome();
      mkdirSync(join(home, dir));
      writeFileSync(
        join(home, dir, 'settings.json'),
        JSON.stringify(hooksWith(`node /opt/openviking-codebuddy/scripts/${entry}`)),
      );
      const check = checkOf(await doctor(home), 'duplicates');
      expect(check.status).toBe('warn');
      expect(check.lines.join('\n')).toContain(`${join(home, dir, 'settings.json')}: UserPromptSubmit hook`);
      expect(check.lines.join('\n')).not.toContain('echo unrelated');
    }
  }, 60_000);

  it('warn on a user-scope openviking MCP server', async () => {
    const home = freshHome();
    writeFileSync(
      join(home, '.codebuddy.json'),
      JSON.stringify({
        mcpServers: { openviking: { command: 'node', args: ['/x/servers/mcp-proxy.mjs'] }, other: { command: 'x' } },
      }),
    );
    const check = checkOf(await doctor(home), 'duplicates');
    expect(check.status).toBe('warn');
    expect(check.lines).toEqual([
      `${join(home, '.codebuddy.json')}: user-scope MCP server "openviking" duplicates the plugin's openviking server (CodeBuddy runs it in the place of the plugin's (one server per name, user scope first))`,
    ]);
    expect(check.fix).toContain('mcp remove openviking');
  });

  it("with the plugin's tools off (mcpEnabled), a user-scope server is the one the hints name: no duplicate, and said found or not (issue 22, DESIGN D29)", async () => {
    const home = freshHome();
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({
        mcpServers: { 'corp-ov': { type: 'http', url: 'https://ov.corp/mcp' }, openviking: { command: 'x' } },
      }),
    );
    const found = checkOf(
      await doctor(home, home, { OPENVIKING_MCP_ENABLED: 'false', OPENVIKING_MCP_SERVER: 'corp-ov' }),
      'duplicates',
    );
    expect(found.status).toBe('pass');
    expect(found.lines.join('\n')).toContain(
      `the hints name your server "corp-ov", registered in ${join(home, '.claude.json')}`,
    );
    const missing = checkOf(
      await doctor(home, home, { OPENVIKING_MCP_ENABLED: 'false', OPENVIKING_MCP_SERVER: 'elsewhere' }),
      'duplicates',
    );
    expect(missing.lines.join('\n')).toMatch(/the hints name your server "elsewhere", which is not in /);
  }, 60_000);
});

// Issue 30 item 1 (DESIGN D34, F23): CodeBuddy runs one server per name, local and project scope before a plugin's.
// On 4953f41 doctor looked at user scope only, and said "All checks passed" in a folder whose .mcp.json hid the tools.
describe("a project- or local-scope server named like the plugin's", () => {
  const pluginEntry = { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/servers/mcp-proxy.mjs'] };

  it.each(['.mcp.json', 'mcp.json'])(
    "<folder>/%s with the plugin's own entry fails: it shadows the plugin's and cannot start",
    async (name) => {
      const home = freshHome();
      const folder = join(home, 'openviking-codebuddy');
      mkdirSync(folder);
      writeFileSync(join(folder, name), JSON.stringify({ mcpServers: { openviking: pluginEntry } }));
      const check = checkOf(await doctor(home, folder), 'duplicates');
      expect(check.status).toBe('fail');
      const text = check.lines.join('\n');
      expect(text).toContain(`${join(folder, name)}: project-scope MCP server "openviking"`);
      expect(text).toContain("shadows the plugin's openviking server in this folder");
      expect(text).toContain('cannot start and the model gets no OpenViking tool');
      expect(check.fix).toContain('Delete the "openviking" entry from the project or local file named above');
    },
    30_000,
  );

  it("a local-scope one in ~/.codebuddy.json projects[<folder>] warns: it waits for approval and replaces the plugin's", async () => {
    const home = freshHome();
    const folder = join(home, 'app');
    mkdirSync(folder);
    writeFileSync(
      join(home, '.codebuddy.json'),
      JSON.stringify({
        projects: {
          [folder]: { mcpServers: { openviking: { type: 'http', url: 'https://ov.example/mcp' } } },
          [join(home, 'other')]: { mcpServers: { openviking: pluginEntry } },
        },
      }),
    );
    const check = checkOf(await doctor(home, folder), 'duplicates');
    expect(check.status).toBe('warn');
    expect(check.lines).toEqual([
      `${join(home, '.codebuddy.json')} projects["${folder}"]: local-scope MCP server "openviking" (CodeBuddy) shadows the plugin's openviking server in this folder: CodeBuddy runs it in the plugin's place; it waits for your approval`,
    ]);
  });

  it('another folder, or another name, is no concern', async () => {
    const home = freshHome();
    const folder = join(home, 'app');
    mkdirSync(folder);
    writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
    expect(checkOf(await doctor(home, folder), 'duplicates').status).toBe('pass');
  });
});

describe('project', () => {
  it('names the peer of the directory doctor runs in, and the workspace switches', async () => {
    const home = freshHome();
    const ws = join(home, 'work');
    mkdirSync(join(ws, '.openviking'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    execFileSync('git', ['remote', 'add', 'origin', 'https://u:secret@example.org/team/app.git'], { cwd: ws });
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ autoCapture: false }));
    const check = checkOf(await doctor(home, ws), 'project');
    expect(check.lines.join('\n')).toMatch(
      /peer: example\.org-team-app {2}\(\{git_remote\} of origin example\.org\/team\/app/,
    );
    expect(check.lines.join('\n')).toContain('off here: autoCapture');
    expect(JSON.stringify(check)).not.toContain('secret');
  });
});
