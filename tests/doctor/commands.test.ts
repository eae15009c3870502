/**
 * The plugin's slash commands (commands/*.md): frontmatter the hosts accept,
 * and inline shell lines that really run once the host substituted the
 * plugin root (both hosts substitute `${CLAUDE_PLUGIN_ROOT}` in command
 * content; CodeBuddy: `substituteLoadTimeVariables`). Needs `npm run build`.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { freshHome } from './support.js';
import { pluginMcpServers } from '../support/plugin-mcp.js';

const COMMANDS_DIR = join(REPO_ROOT, 'commands');
const read = (name: string) => readFileSync(join(COMMANDS_DIR, name), 'utf8');

/** `key: value` lines between the opening and closing `---`. */
function frontmatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error('no frontmatter');
  return Object.fromEntries(
    (match[1] as string).split('\n').map((line) => {
      const colon = line.indexOf(':');
      return [
        line.slice(0, colon).trim(),
        line
          .slice(colon + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      ];
    }),
  );
}

/** The host's inline-bash syntax: !`command`. */
const inlineCommands = (text: string) => [...text.matchAll(/!`([^`]+)`/g)].map((match) => (match[1] as string).trim());

describe('slash commands', () => {
  it('ships doctor, forget, import, learned, recall, remember, status, trust and why, each with a description', () => {
    const names = readdirSync(COMMANDS_DIR)
      .filter((name) => name.endsWith('.md'))
      .sort();
    expect(names).toEqual([
      'doctor.md',
      'forget.md',
      'import.md',
      'learned.md',
      'recall.md',
      'remember.md',
      'status.md',
      'trust.md',
      'why.md',
    ]);
    for (const name of names) expect(frontmatter(read(name))['description']?.length).toBeGreaterThan(10);
  });

  it('allows exactly the shell commands it runs', () => {
    for (const name of ['doctor.md', 'import.md', 'learned.md', 'status.md', 'why.md']) {
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

  it('learned and import run their inline lines once the plugin root is substituted (DESIGN D35, D36)', async () => {
    const home = freshHome();
    const env = { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' };
    const [learned] = inlineCommands(read('learned.md'));
    const [status] = inlineCommands(read('import.md'));
    expect(status).toBe('node "${CLAUDE_PLUGIN_ROOT}/scripts/hook.mjs" import --status');
    const outputs: string[] = [];
    for (const command of [learned, status]) {
      const run = await runProcess(
        '/bin/sh',
        ['-c', (command as string).replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT)],
        {
          env,
          cwd: home,
          timeoutMs: 15_000,
        },
      );
      outputs.push(run.stdout);
    }
    expect(outputs[0]).toMatch(/^No commit of a session of .* is recorded yet/);
    expect(outputs[1]).toBe('No import has run here yet.\n');
    // The model builds the import's one command from a closed set of options, and starts it in the background.
    const text = read('import.md');
    for (const flag of ['--all', '--dry-run', '--status', '--since', '--background']) expect(text).toContain(flag);
  }, 40_000);

  it("never pastes the user's words into an inline shell line (the host substitutes $ARGUMENTS as text before running it)", () => {
    for (const name of readdirSync(COMMANDS_DIR).filter((entry) => entry.endsWith('.md'))) {
      for (const command of inlineCommands(read(name))) expect(command, name).not.toMatch(/\$ARGUMENTS|\$\d/);
    }
  });

  it('recall hands the query over in a private file, never in a shell command (issue 20; every shell: tests/security/recall-command); why runs inline (issue 17.2)', async () => {
    const home = freshHome();
    const env = { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' };
    const text = read('recall.md');
    expect(text).toContain('<query>\n$ARGUMENTS\n</query>');
    const [prepare] = inlineCommands(text);
    expect(prepare).toBe('node "${CLAUDE_PLUGIN_ROOT}/scripts/hook.mjs" recall-preview --new-query-file');
    const template = /```sh\n\s*(.+)\n\s*```/.exec(text)?.[1] as string;
    expect(template).toBe('node "${CLAUDE_PLUGIN_ROOT}/scripts/hook.mjs" recall-preview --query-id <query id>');
    const prepared = await runProcess(
      '/bin/sh',
      ['-c', (prepare as string).replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT)],
      { env, cwd: home, timeoutMs: 15_000 },
    );
    const file = /query file: (.+)/.exec(prepared.stdout)?.[1] as string;
    const id = /query id: ([0-9a-f]{16})/.exec(prepared.stdout)?.[1] as string;
    const hostile = `what's "deployed" $(touch pwned) \`touch pwned2\` $HOME`;
    writeFileSync(file, hostile);
    const recall = await runProcess(
      '/bin/sh',
      ['-c', template.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT).replace('<query id>', id)],
      { env, cwd: home, timeoutMs: 15_000 },
    );
    expect(recall.stdout).toMatch(/^Recall preview for: what's "deployed" \$\(touch pwned\) `touch pwned2` \$HOME\n/);
    expect(recall.stdout).toContain('recall failed');
    expect(readdirSync(home)).not.toContain('pwned');
    expect(readdirSync(home)).not.toContain('pwned2');

    const [why] = inlineCommands(read('why.md'));
    const whyRun = await runProcess(
      '/bin/sh',
      ['-c', (why as string).replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, REPO_ROOT)],
      { env, cwd: home, timeoutMs: 15_000 },
    );
    expect(whyRun.stdout).toMatch(/^No injection recorded yet/);
  }, 40_000);

  it('recall-preview sends nothing private: a query that is only private text or a secret makes no request', async () => {
    const home = freshHome();
    const env = { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' };
    const run = await runProcess(
      process.execPath,
      [
        join(REPO_ROOT, 'scripts', 'hook.mjs'),
        'recall-preview',
        '--',
        '<private>the launch code is 0000</private> sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ],
      { env, cwd: home, timeoutMs: 15_000 },
    );
    expect(run.stdout).toMatch(/nothing is left of the query/);
    expect(run.stdout).not.toContain('launch code');
    expect(run.stdout).not.toContain('recall failed');
  }, 20_000);

  it('forget finds, shows, asks, then deletes through the forget tool of either host', () => {
    const text = read('forget.md');
    expect(text).toContain('$ARGUMENTS');
    expect(text).toContain('mcp__openviking__forget');
    expect(text).toContain('mcp__plugin_openviking_openviking__forget');
    expect(text).toMatch(/explicit yes/);
    expect(frontmatter(text)['allowed-tools']).toBeUndefined();
  });

  it("remember names the MCP tool the plugin's own server key yields", () => {
    const servers = Object.keys(pluginMcpServers());
    const text = read('remember.md');
    expect(servers).toContain('openviking');
    expect(text).toContain('"toolName": "mcp__openviking__remember"');
    expect(text).toContain('$ARGUMENTS');
    expect(frontmatter(text)['argument-hint']).toBe('<fact to remember>');
  });
});
