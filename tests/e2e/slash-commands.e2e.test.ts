/**
 * The plugin's slash commands on the real CLI 2.117 (issue 20 items 3-4,
 * DESIGN F20, D27), headless `-p`. `/openviking:recall`: The host expands the command (its inline `!`
 * step prints a private query file and an id); a scripted model that does
 * what the file says writes the query with the Write tool and runs the one
 * fixed Bash command. Under bash and fish, a hostile query reaches the
 * server's search as the model saw it and runs nothing, and the recalled
 * memory comes back.
 *
 * Host facts pinned here (read in the 2.117 bundle, DESIGN F20): the host
 * runs a `!`…`` that the USER types in a command's arguments, even for a
 * command without `$ARGUMENTS` (it appends `ARGUMENTS: …`); the plugin
 * cannot stop that, README says so. The model's tool list names none of
 * the plugin's commands (2.117's Skill tool lists skills only, flag or
 * not), but its Skill tool still expands a command the model names, and
 * `disable-model-invocation` does not stop that on 2.117: the PreToolUse
 * guard does (8e37669: the model's `!`touch`` ran).
 *
 * @module
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCall } from './support/chat-types.js';
import { lastUserText, toolResults } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { afterToolResult, callTool, firstMatching, forPurpose } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const FISH = '/usr/bin/fish';
const DONE = 'E2E-RECALL-COMMAND-DONE';

/** The rendered command, as the model got it. */
function renderedCommand(call: ModelCall): string {
  return lastUserText(call);
}

/** A model that follows commands/recall.md: Write the query to the query file, then the one Bash command (or, for the old file, the quoting recipe). */
function followTheCommand(): (call: ModelCall) => ReturnType<typeof callTool> | { text: string } | undefined {
  return firstMatching([
    {
      when: (call) =>
        call.purpose === 'conversation' &&
        toolResults(call).length === 0 &&
        /query id: [0-9a-f]{16}/.test(renderedCommand(call)),
      reply: (call) => {
        const text = renderedCommand(call);
        const query = /<query>\n([\s\S]*?)\n<\/query>/.exec(text)?.[1] ?? '';
        const file = /query file: (.+)/.exec(text)?.[1]?.trim() ?? '';
        return callTool('Write', { file_path: file, content: query });
      },
    },
    {
      // The file before issue 20 (8e37669) said: the query as one single-quoted argument, each ' as '\''.
      when: (call) =>
        call.purpose === 'conversation' &&
        toolResults(call).length === 0 &&
        renderedCommand(call).includes("recall-preview -- '<query>'"),
      reply: (call) => {
        const text = renderedCommand(call);
        const query = /<query>\n([\s\S]*?)\n<\/query>/.exec(text)?.[1] ?? '';
        const command = (/```sh\n([\s\S]*?)\n\s*```/.exec(text)?.[1] ?? '')
          .trim()
          .replace("'<query>'", `'${query.replaceAll("'", "'\\''")}'`);
        return callTool('Bash', { command, description: 'recall preview' });
      },
    },
    {
      when: (call) =>
        call.purpose === 'conversation' &&
        toolResults(call).length === 1 &&
        /query id: [0-9a-f]{16}/.test(call.messages.map((message) => JSON.stringify(message.content ?? '')).join('\n')),
      reply: (call) => {
        const text = call.messages
          .map((message) => (message.role === 'user' ? lastUserText({ ...call, messages: [message] }) : ''))
          .join('\n');
        const id = /query id: ([0-9a-f]{16})/.exec(text)?.[1] ?? '';
        const command = (/```sh\n([\s\S]*?)\n\s*```/.exec(text)?.[1] ?? '').trim().replace('<query id>', id);
        return callTool('Bash', { command, description: 'recall preview' });
      },
    },
    afterToolResult({ text: DONE }),
    forPurpose('conversation', { text: DONE }),
  ]);
}

describe.each([
  ['bash', '/bin/bash'],
  ['fish', FISH],
])('/openviking:recall under SHELL=%s', (_name, shell) => {
  let world: E2eWorld;
  let run: CliRun;
  let markers: string;

  beforeAll(async () => {
    if (!existsSync(shell)) throw new Error(`${shell} is missing`);
    requirePluginBuild();
    world = await createWorld(`recall-cmd-${_name}`, followTheCommand());
    markers = join(world.sandbox.root, 'markers');
    mkdirSync(markers);
    // The host's argument splitter drops quote characters, except inside the other kind: "a\'; …" reaches the model as a\'; ….
    const hostile = `kestrel helm $(touch ${markers}/m1) \`touch ${markers}/m2\` x; touch ${markers}/m3 (touch ${markers}/m4) "a\\'; touch ${markers}/m5 #"`;
    // Threshold 0: the noise around "kestrel helm" must not hide the seeded memory.
    run = await runPrompt(world.sandbox, `/openviking:recall ${hostile}`, {
      plugin: world.repoPlugin,
      env: { ...world.pluginEnv, SHELL: shell, OPENVIKING_SCORE_THRESHOLD: '0' },
    });
  }, 120_000);

  afterAll(async () => {
    await world?.dispose();
  });

  it('the CLI finishes normally and the model did what the command says', () => {
    expectNormalExit(run);
    expect(run.stdout, world.evidence()).toContain(DONE);
  });

  it('the host ran the inline step and the Bash tool with this shell, and nothing of the query ran', () => {
    expect(world.sandbox.cliLogs()).toContain(`createChildProcessHandle | executable=${shell}`);
    expect(readdirSync(markers), world.evidence()).toEqual([]);
  });

  it('the query reached the search as the model saw it, and the memory came back to the model', () => {
    const first = world.model.calls('conversation')[0];
    const seen = (/<query>\n([\s\S]*?)\n<\/query>/.exec(first ? renderedCommand(first) : '')?.[1] ?? '').trim();
    expect(seen, world.evidence()).toContain('kestrel helm $(touch');
    expect(seen).toContain("a\\'; touch");
    const searched = world.ov
      .requests({ path: '/api/v1/search/search' })
      .map((request) => (request.body as { query?: unknown }).query);
    expect(searched, world.evidence()).toContain(seen);
    const last = world.model.calls('conversation').at(-1);
    const preview = toolResults(last!)
      .map((result) => result.text)
      .join('\n');
    expect(preview, world.evidence()).toContain('Recall preview for: ');
    expect(preview, `${preview}\n${world.evidence()}`).toContain('kestrel');
    expect(preview).toMatch(/viking:\/\/\S+/);
  });

  it("the tool list offered to the model names none of the plugin's commands (2.117 lists skills only)", () => {
    const first = world.model.calls('conversation')[0];
    const tools = JSON.stringify(first?.body?.['tools'] ?? []);
    expect(tools).not.toMatch(/openviking:(recall|remember|forget|doctor|status|why)/);
  });
});

describe("host fact: a `!`…`` the user types in a command's arguments is run by the host", () => {
  let world: E2eWorld;
  let markers: string;
  let run: CliRun;

  beforeAll(async () => {
    requirePluginBuild();
    world = await createWorld('recall-cmd-bang', firstMatching([forPurpose('conversation', { text: DONE })]));
    markers = join(world.sandbox.root, 'markers');
    mkdirSync(markers);
    // `/openviking:remember` has no `!` step of its own; the host still runs the one in the arguments.
    run = await runPrompt(world.sandbox, `/openviking:remember deploy notes !\`touch ${markers}/typed-by-user\``, {
      plugin: world.repoPlugin,
      env: world.pluginEnv,
    });
  }, 120_000);

  afterAll(async () => {
    await world?.dispose();
  });

  it('CodeBuddy 2.117 ran it (README and DESIGN F20 say so; the plugin cannot stop a user typing it)', () => {
    expectNormalExit(run);
    expect(readdirSync(markers), world.evidence()).toEqual(['typed-by-user']);
  });
});

describe('the model cannot run a plugin command through the Skill tool (2.117 ignores disable-model-invocation there)', () => {
  let world: E2eWorld;
  let markers: string;
  let run: CliRun;

  beforeAll(async () => {
    requirePluginBuild();
    let dir = '';
    world = await createWorld(
      'recall-cmd-skill',
      firstMatching([
        {
          when: (call) => call.purpose === 'conversation' && toolResults(call).length === 0,
          reply: () => callTool('Skill', { skill: 'openviking:remember', args: `notes !\`touch ${dir}/via-skill\`` }),
        },
        afterToolResult({ text: DONE }),
      ]),
    );
    markers = join(world.sandbox.root, 'markers');
    dir = markers;
    mkdirSync(markers);
    run = await runPrompt(world.sandbox, 'please remember my notes (E2E-SKILL)', {
      plugin: world.repoPlugin,
      env: world.pluginEnv,
    });
  }, 120_000);

  afterAll(async () => {
    await world?.dispose();
  });

  it("the guard denies the call: nothing of the model's arguments runs, and the model is told why", () => {
    expectNormalExit(run);
    expect(readdirSync(markers), world.evidence()).toEqual([]);
    const result = toolResults(world.model.calls('conversation').at(-1)!)
      .map((entry) => entry.text)
      .join('\n');
    expect(result, world.evidence()).toContain('is a command for the user to type');
  });
});

describe('host fact: the expanded command is rendered as a nunjucks template, inline outputs included', () => {
  let world: E2eWorld;
  let run: CliRun;

  beforeAll(async () => {
    requirePluginBuild();
    world = await createWorld('slash-template', firstMatching([forPurpose('conversation', { text: DONE })]));
    // The doctor prints the server URL; a URL (or a server's message, a memory, an earlier prompt) may hold a template tag.
    run = await runPrompt(world.sandbox, '/openviking:doctor', {
      plugin: world.repoPlugin,
      env: { ...world.pluginEnv, OPENVIKING_URL: 'http://127.0.0.1:9/a{{ 7*7 }}b' },
    });
  }, 120_000);

  afterAll(async () => {
    await world?.dispose();
  });

  it("the plugin's output reaches the model as text: the tag is not evaluated (8e37669: the model read a49b)", () => {
    expectNormalExit(run);
    const rendered = lastUserText(world.model.calls('conversation')[0]!);
    expect(rendered, world.evidence()).toContain('server URL: http://127.0.0.1:9/a{\u200b{ 7*7 }}b');
    expect(rendered).not.toContain('a49b');
  });
});
