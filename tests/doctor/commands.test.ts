/**
 * The plugin's slash commands (commands/*.md): frontmatter the hosts accept,
 * and inline shell lines that really run once the host substituted the
 * plugin root (both hosts substitute `${CLAUDE_PLUGIN_ROOT}` in command
 * content; CodeBuddy: `substituteLoadTimeVariables`). Needs `npm run build`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { freshHome } from './support.js';

const COMMANDS_DIR = join(REPO_ROOT, 'commands');
const read = (name: string) => readFileSync(join(COMMANDS_DIR, name), 'utf8');

/** `key: value` lines between the opening and closing `---`. */
function frontmatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error('no frontmatter');
  return Object.fromEntries(
    (match[1] as string).split('\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim().replace(/^"(.*)"$/, '$1')];
    }),
  );
}

/** The host's inline-bash syntax: !`command`. */
const inlineCommands = (text: string) => [...text.matchAll(/!`([^`]+)`/g)].map((match) => (match[1] as string).trim());

describe('slash commands', () => {
  it('ships doctor, forget, recall, remember, status and why, each with a description', () => {
    const names = readdirSync(COMMANDS_DIR).filter((name) => name.endsWith('.md')).sort();
    expect(names).toEqual(['doctor.md', 'forget.md', 'recall.md', 'remember.md', 'status.md', 'why.md']);
    for (const name of names) expect(frontmatter(read(name))['description']?.length).toBeGreaterThan(10);
  });

  it('allows exactly the shell commands it runs', () => {
    for (const name of ['doctor.md', 'status.md', 'recall.md', 'why.md']) {
      const text = read(name);
      expect(frontmatter(text)['allowed-tools']).toBe('Bash(node:*)');
      const commands = inlineCommands(text);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) expect(command).toMatch(/^node "\$\{CLAUDE_PLUGIN_ROOT\}\/scripts\/[a-z]+\.mjs"/);
    }
  });

  it('runs the doctor and the status line once the plugin root is substituted', async () => {
    const home = freshHome();
    const outputs: string[] = [];
    for (const command of [...inlineCommands(read('doctor.md')), ...inlineCommands(read('status.md'))]) {
      const substituted = command.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT);
      const run = await runProcess('/bin/sh', ['-c', substituted], {
        env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' },
        cwd: home,
        timeoutMs: 15_000,
      });
      outputs.push(run.stdout);
    }
    expect(outputs[0]).toMatch(/^OpenViking doctor \(openviking-codebuddy /);
    expect(outputs[0]).toContain('[FAIL] Server');
    expect(outputs[1]).toBe('OV not contacted yet\n');
    expect(outputs[2]).toMatch(/^OpenViking doctor/);
  }, 40_000);

  it('recall and why run once the plugin root and the arguments are substituted (issue 17.2)', async () => {
    const home = freshHome();
    const run = async (name: string, args: string) => {
      const [command] = inlineCommands(read(name));
      const substituted = (command as string).replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT).replace(/\$ARGUMENTS/g, args);
      return runProcess('/bin/sh', ['-c', substituted], { env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' }, cwd: home, timeoutMs: 15_000 });
    };
    const recall = await run('recall.md', 'how do we deploy');
    expect(recall.stdout).toMatch(/^Recall preview for: how do we deploy\n/);
    expect(recall.stdout).toContain('recall failed');
    expect((await run('why.md', '')).stdout).toMatch(/^No injection recorded yet/);
  }, 40_000);

  it('forget finds, shows, asks, then deletes through the forget tool of either host', () => {
    const text = read('forget.md');
    expect(text).toContain('$ARGUMENTS');
    expect(text).toContain('mcp__openviking__forget');
    expect(text).toContain('mcp__plugin_openviking_openviking__forget');
    expect(text).toMatch(/explicit yes/);
    expect(frontmatter(text)['allowed-tools']).toBeUndefined();
  });

  it('remember names the MCP tool the plugin\'s own server key yields', () => {
    const servers = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers);
    const text = read('remember.md');
    expect(servers).toContain('openviking');
    expect(text).toContain('"toolName": "mcp__openviking__remember"');
    expect(text).toContain('$ARGUMENTS');
    expect(frontmatter(text)['argument-hint']).toBe('<fact to remember>');
  });
});
