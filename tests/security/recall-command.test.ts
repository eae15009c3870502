/**
 * `/openviking:recall` keeps the query out of every shell (issue 20 items
 * 3-4, DESIGN D27). The steps of commands/recall.md are done here as the
 * host and a model that follows them would: the host runs the command's
 * inline `!` step with `$SHELL -c`; the model writes the query with its
 * Write tool (here: a plain file write, which is what the tool does) and
 * runs the one Bash command the file gives it, with `$SHELL -c`. Under bash,
 * dash, zsh and fish, hostile queries (quotes, `\'`, `$()`, backticks,
 * `!`…``, newlines, fish's `(…)` and escapes) reach the server's search
 * verbatim and run nothing. Against 8e37669's file (quote the query as
 * `'…'` with `'\''`) the fish rows ran `touch`.
 *
 * Also: every command of the plugin says `disable-model-invocation: true`
 * (the host appends `ARGUMENTS: …` to every command and runs any `!`…``
 * in it, DESIGN F20), and no command puts `$ARGUMENTS` into a `!` step.
 * Needs `npm run build`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { DEFAULT_SEED } from '../support/session-world.js';

const SHELLS = ['/bin/bash', '/bin/sh', '/usr/bin/zsh', '/usr/bin/fish'].filter((shell) => existsSync(shell));
const COMMANDS_DIR = join(REPO_ROOT, 'commands');

let server: OvTestServer;
let root: string;
let markers: string;

beforeAll(async () => {
  server = await startOvServer({ seed: DEFAULT_SEED });
  root = mkdtempSync(join(tmpdir(), 'ov-recall-cmd-'));
  markers = join(root, 'markers');
  execFileSync('mkdir', ['-p', markers, join(root, 'home'), join(root, 'ws')]);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Queries that would run `touch <marker>/<n>` if any shell ever parsed them. */
function hostileQueries(): string[] {
  const m = (n: number) => join(markers, `m${n}`);
  return [
    `deploy notes, it's "quoted" and 'single'`,
    `a\\'; touch ${m(1)} #`,
    `a\\\\'; touch ${m(2)}; echo '`,
    `$(touch ${m(3)})`,
    `\`touch ${m(4)}\``,
    `x; touch ${m(5)}`,
    `first line\nsecond; touch ${m(6)}\n`,
    `(touch ${m(7)})`,
    `'; touch ${m(8)}; echo '`,
    `!\`touch ${m(9)}\` deploy`,
    `$HOME \${PATH} %PATH% \\n \\t \\\\ {a,b} *`,
    `" ; touch ${m(10)} ; "`,
    `ünïcödé 部署 🚀 | & > /dev/null < x`,
  ];
}

/** The inline `!`…`` steps of a command file (what the host runs when it expands it). */
function inlineSteps(markdown: string): string[] {
  return [...markdown.matchAll(/!`([^`]+)`/g)].map((match) => (match[1] as string).trim());
}

/** The command the file tells the model to run with Bash (its ```sh block). */
function bashStep(markdown: string): string {
  return (/```sh\n([\s\S]*?)\n\s*```/.exec(markdown)?.[1] ?? '').trim();
}

const withRoot = (command: string) => command.replaceAll('${CLAUDE_PLUGIN_ROOT}', REPO_ROOT);

async function inShell(
  shell: string,
  command: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await runProcess(shell, ['-c', command], {
    cwd: join(root, 'ws'),
    env: {
      PATH: process.env.PATH,
      HOME: join(root, 'home'),
      SHELL: shell,
      OPENVIKING_URL: server.url,
      OPENVIKING_RESIDENT: 'off',
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
    },
    timeoutMs: 20_000,
  });
  return { code: run.exitCode, stdout: run.stdout, stderr: run.stderr };
}

/** What a model following commands/recall.md does for `query`, under `shell`; returns the preview's output. */
async function followRecallCommand(shell: string, query: string): Promise<string> {
  const markdown = readFileSync(join(COMMANDS_DIR, 'recall.md'), 'utf8');
  const rendered: string[] = [];
  for (const step of inlineSteps(markdown)) rendered.push((await inShell(shell, withRoot(step))).stdout);
  const output = rendered.join('\n');
  let command = withRoot(bashStep(markdown));
  const file = /query file: (.+)/.exec(output)?.[1]?.trim();
  const id = /query id: ([0-9a-f]+)/.exec(output)?.[1];
  if (file !== undefined && id !== undefined) {
    writeFileSync(file, query); // the Write tool: a JSON argument to the host, no shell
    command = command.replace('<query id>', id);
  } else {
    // The old recipe: the query as ONE single-quoted argument, each ' written as '\''.
    command = command.replace("'<query>'", `'${query.replaceAll("'", "'\\''")}'`);
  }
  const run = await inShell(shell, command);
  return run.stdout + run.stderr;
}

describe('commands/recall.md under every shell', () => {
  for (const shell of SHELLS) {
    it(`${shell}: hostile queries reach the search verbatim and run nothing`, async () => {
      for (const query of hostileQueries()) {
        server.clearRequests();
        const output = await followRecallCommand(shell, query);
        expect(readdirSync(markers), `${shell} ran something of: ${query}\n${output}`).toEqual([]);
        const searched = server
          .requests({ path: '/api/v1/search/search' })
          .map((request) => (request.body as { query?: unknown }).query);
        expect(searched, `${shell}: ${query}\n${output}`).toEqual([query.trim()]);
        expect(output).toContain('Recall preview for: ');
      }
    }, 120_000);
  }

  it('the query file is private, single-use, and a wrong id is refused without a search', async () => {
    const shell = SHELLS[0] as string;
    const markdown = readFileSync(join(COMMANDS_DIR, 'recall.md'), 'utf8');
    const output = (await inShell(shell, withRoot(inlineSteps(markdown)[0] as string))).stdout;
    const file = /query file: (.+)/.exec(output)?.[1]?.trim() as string;
    const id = /query id: ([0-9a-f]{16})/.exec(output)?.[1] as string;
    expect(execFileSync('stat', ['-c', '%a', join(file, '..')], { encoding: 'utf8' }).trim()).toBe('700');
    writeFileSync(file, 'how do I deploy the osprey cluster?');
    server.clearRequests();
    const first = await inShell(shell, withRoot(bashStep(markdown).replace('<query id>', id)));
    expect(first.stdout).toContain('Recall preview for: how do I deploy the osprey cluster?');
    expect(existsSync(file)).toBe(false);
    const again = await inShell(shell, withRoot(bashStep(markdown).replace('<query id>', id)));
    expect(again.code).toBe(2);
    const forged = await inShell(shell, withRoot(bashStep(markdown).replace('<query id>', '../../etc/passwd')));
    expect(forged.code).toBe(2);
    expect(server.requests({ path: '/api/v1/search/search' })).toHaveLength(1);
  }, 60_000);
});

describe('every command of the plugin', () => {
  const files = readdirSync(COMMANDS_DIR).filter((name) => name.endsWith('.md'));

  it.each(files)('%s: disable-model-invocation: true, and no argument inside a `!` step', (name) => {
    const markdown = readFileSync(join(COMMANDS_DIR, name), 'utf8');
    const frontmatter = /^---\n([\s\S]*?)\n---/.exec(markdown)?.[1] ?? '';
    expect(frontmatter).toMatch(/^disable-model-invocation: true$/m);
    for (const step of inlineSteps(markdown)) expect(step).not.toMatch(/\$ARGUMENTS|\$\d|\$\{?[A-Z_]*ARG/);
  });
});

/**
 * `disable-model-invocation` is honoured at execution only by some hosts:
 * CodeBuddy 2.117's Skill tool expanded `openviking:remember` for the model
 * and ran the `!`…`` of its arguments (e2e recall-command). The PreToolUse
 * guard denies a Skill or SlashCommand call naming an `openviking:` command,
 * through the built hook and the prefilter; other skills never start node.
 */
describe("the model cannot run the plugin's commands (PreToolUse guard)", () => {
  const payloadsFor = (host: 'codebuddy' | 'claude-code') => {
    const sim = createHostSim({ pluginRoot: REPO_ROOT, home: join(root, 'home'), workspace: join(root, 'ws'), host });
    const p = createPayloads({ workspace: join(root, 'ws'), configDir: join(root, 'home', '.codebuddy') });
    return { sim, p };
  };

  it.each([
    ['codebuddy', 'Skill', { skill: 'openviking:remember', args: '!`touch /tmp/x`' }],
    ['codebuddy', 'Skill', { skill: '/openviking:why' }],
    ['codebuddy', 'Skill', { command: 'OpenViking:Recall' }],
    ['codebuddy', 'SlashCommand', { command: '/openviking:doctor !`id`' }],
    ['claude-code', 'SlashCommand', { command: '/openviking:forget x' }],
    ['claude-code', 'Skill', { skill: 'openviking:status' }],
  ] as const)('%s %s %j is denied', async (host, tool, input) => {
    const { sim, p } = payloadsFor(host);
    const result = await sim.fire('PreToolUse', p.preToolUse(tool, input));
    expect(result.timedOut).toBe(false);
    expect(result.outputs[0]?.decision).toBe('deny');
    expect(result.outputs[0]?.reason).toMatch(/is a command for the user to type/);
  });

  it.each([
    ['Skill', { skill: 'openviking-memory' }],
    ['Skill', { skill: 'loop', args: '5m /foo' }],
    ['SlashCommand', { command: '/review-pr 12' }],
  ] as const)('%s %j passes', async (tool, input) => {
    const { sim, p } = payloadsFor('codebuddy');
    const result = await sim.fire('PreToolUse', p.preToolUse(tool, input));
    expect(result.outputs[0]?.decision).not.toBe('deny');
  });
});
