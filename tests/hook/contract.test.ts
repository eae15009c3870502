/**
 * The shipped plugin files, read as the host reads them: every event reaches
 * the hook entry scripts/hook.cjs (CommonJS, D38) through the plain `${CLAUDE_PLUGIN_ROOT}` (CodeBuddy
 * rewrites the text, Claude Code's /bin/sh expands it; any `${VAR:-…}` form
 * breaks fish; DESIGN.md D10, D23), directly, via the guard prefilter, or via
 * the write-path detacher; the prompt and start commands first let the
 * hooks module take them over (protocol/handoff.ts); the PreToolUse matcher
 * selects the file tools and nothing else, on both matcher readings; every
 * path stays inside the plugin root; the dispatcher's budgets sit inside
 * the hook timeouts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_SAFETY_MS } from '../../src/protocol/budgets.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { routeFor } from '../../src/hook/routes.js';
import { REQUEST_CAP_MS } from '../../src/resident/server.js';
import { RESIDENT_WAIT_MS } from '../../src/stages/relay.js';
import { MAX_STDIN_BYTES } from '../../src/protocol/stdin.js';
import { matchesMatcher } from '../support/host-sim/protocol/index.js';
import type { MatcherMode } from '../support/host-sim/protocol/index.js';
import { START_INSTEAD, stepAsidePrefix } from '../../src/protocol/handoff.js';
import { loadHooksConfig, substitutePluginRoot } from '../support/host-sim/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { pluginMcpServers } from '../support/plugin-mcp.js';

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as Record<string, unknown>;
const hooksJson = readJson('hooks/hooks.json');
const config = loadHooksConfig(REPO_ROOT);
const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'Stop',
  'PreCompact',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
];
const FILE_TOOLS = ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'NotebookEdit', 'NotebookRead'];
const NOT_GUARDED = [
  'Bash',
  'Agent',
  'DeferExecuteTool',
  'ToolSearch',
  'WebFetch',
  'ReadMcpResource',
  'mcp__openviking__read',
  'mcp__openviking__grep',
  'read',
  'TaskCreate',
  '',
];
const MODES: MatcherMode[] = ['codebuddy', 'claude'];

/** The command without the hand-off's tests (their variables are quoted too), keeping what runs instead (the start's detacher). */
function withoutStepAside(command: string): string {
  return command.replace(
    /^\[ -z "\$CODEBUDDY_PLUGIN_ROOT" \] && \[ -n "\$OPENVIKING_MODULE_[A-Z]+" \] && \[ "\$OPENVIKING_MODULE_[A-Z]+" = "\$PPID" \] && (?:exit 0; )?/,
    '',
  );
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, resolve(path));
  return rel !== '' && !rel.startsWith('..');
}

describe('hooks/hooks.json', () => {
  it('has exactly the plugin events and nothing else (the module is named where only Claude Code looks: manifests.test)', () => {
    expect(Object.keys(hooksJson)).toEqual(['hooks']);
    expect(Object.keys(config).sort()).toEqual([...EVENTS].sort());
  });

  it('every command reaches scripts/hook.cjs through ${CLAUDE_PLUGIN_ROOT}, directly, via the prefilter or via the detacher', () => {
    const ROOT = '${CLAUDE_PLUGIN_ROOT}';
    const WRITE_PATH = ['Stop', 'SubagentStop', 'SessionEnd', 'SubagentStart'];
    for (const event of EVENTS) {
      const hooks = (config[event] ?? []).flatMap((g) => g.hooks);
      expect(hooks.length, event).toBe(1);
      for (const hook of hooks) {
        expect(hook.type).toBe('command');
        const expected =
          event === 'PreToolUse'
            ? `sh "${ROOT}/hooks/guard-prefilter.sh"`
            : WRITE_PATH.includes(event)
              ? `sh "${ROOT}/hooks/detach.sh"`
              : event === 'UserPromptSubmit'
                ? `${stepAsidePrefix('prompt')}sh "${ROOT}/hooks/relay.sh"`
                : event === 'SessionStart'
                  ? `${stepAsidePrefix('start', START_INSTEAD)}sh "${ROOT}/hooks/relay.sh"`
                  : `node "${ROOT}/${HOOK_ENTRY}"`;
        expect(hook.command, event).toBe(expected);
      }
    }
    expect(readFileSync(join(REPO_ROOT, 'hooks/guard-prefilter.sh'), 'utf8')).toContain(
      `exec node "$here/../${HOOK_ENTRY}" <<EOF`,
    );
    expect(readFileSync(join(REPO_ROOT, 'hooks/detach.sh'), 'utf8')).toContain(
      `"$@" "$here/../${HOOK_ENTRY}" detached >/dev/null 2>&1 <<EOF &`,
    );
  });

  it("the prefilter's and the door's stdin cap is the dispatcher's bound, counting the here-document's newline", () => {
    for (const name of ['guard-prefilter.sh', 'relay.sh']) {
      const script = readFileSync(join(REPO_ROOT, 'hooks', name), 'utf8');
      expect(script, name).toContain(`head -c ${MAX_STDIN_BYTES})`);
      expect(script, name).toContain(`-gt ${MAX_STDIN_BYTES - 1} ]`);
    }
  });

  it("the door's wait is the node relay's (RESIDENT_WAIT_MS), and its way to node is the hook entry's door mode", () => {
    const script = readFileSync(join(REPO_ROOT, 'hooks/relay.sh'), 'utf8');
    expect(script).toContain(`timeout ${RESIDENT_WAIT_MS / 1000} cat "$reply"`);
    expect(script).toContain(`hook=$here/../${HOOK_ENTRY}`);
    expect(script).toContain('exec node "$hook" door "$print"');
  });

  it('every referenced file exists inside the plugin root after substitution', () => {
    for (const group of Object.values(config).flat()) {
      for (const hook of group.hooks) {
        const command = substitutePluginRoot(withoutStepAside(hook.command), REPO_ROOT);
        const paths = [...command.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');
        expect(paths.length, command).toBe(command.startsWith('exec sh') ? 2 : 1);
        for (const path of paths) {
          expect(isInside(REPO_ROOT, path), path).toBe(true);
          expect(existsSync(path), `${path} (run npm run build)`).toBe(true);
        }
      }
    }
  });

  it('the PreToolUse matcher selects the file tools and nothing else, on both hosts', () => {
    const groups = config.PreToolUse ?? [];
    expect(groups).toHaveLength(1);
    const matcher = groups[0]?.matcher;
    for (const mode of MODES) {
      for (const tool of FILE_TOOLS) expect(matchesMatcher(matcher, tool, mode), `${mode} ${tool}`).toBe(true);
      for (const tool of NOT_GUARDED.filter(Boolean))
        expect(matchesMatcher(matcher, tool, mode), `${mode} ${tool}`).toBe(false);
    }
  });

  it('other events have no matcher (every source, reason and trigger)', () => {
    for (const event of EVENTS.filter((e) => e !== 'PreToolUse')) {
      for (const group of config[event] ?? []) expect(group.matcher, event).toBeUndefined();
    }
  });

  it('each event has a timeout, and the dispatcher answers at least 1.5 s before it', () => {
    for (const event of EVENTS) {
      const timeout = config[event]?.[0]?.hooks[0]?.timeout;
      expect(typeof timeout, event).toBe('number');
      const route = routeFor(event);
      expect(route, event).toBeDefined();
      expect((route?.safetyMs ?? Infinity) + 1_500, event).toBeLessThanOrEqual((timeout ?? 0) * 1000);
    }
  });

  for (const event of ['UserPromptSubmit', 'SessionStart'] as const)
    it(`${event} waits for the resident inside its budget, even after the slowest stdin read; the resident answers before that wait ends`, () => {
      const timeoutMs = (config[event]?.[0]?.hooks[0]?.timeout ?? 0) * 1000;
      // The synchronous wait cannot be cut by the safety timer, so it is bounded by itself.
      expect(RESIDENT_WAIT_MS).toBeLessThan(routeFor(event)?.safetyMs ?? 0);
      expect(PREFLIGHT_SAFETY_MS + RESIDENT_WAIT_MS + 1_000).toBeLessThanOrEqual(timeoutMs);
      expect(REQUEST_CAP_MS).toBeLessThan(RESIDENT_WAIT_MS);
    });
});

describe('.codebuddy-plugin/plugin.json and the MCP server file it names', () => {
  it('the manifest names the plugin and points nowhere outside it', () => {
    const manifest = readJson('.codebuddy-plugin/plugin.json');
    expect(manifest.name).toBe('openviking');
    for (const key of ['hooks', 'mcpServers', 'commands', 'agents', 'skills']) {
      const value = manifest[key];
      if (typeof value === 'string') expect(isInside(REPO_ROOT, join(REPO_ROOT, value)), key).toBe(true);
    }
  });

  it('the MCP server runs servers/mcp-proxy.mjs inside the root, named by the one placeholder both hosts fill in', () => {
    const server = pluginMcpServers()['openviking'];
    expect(server?.command).toBe('node');
    expect(server?.args).toEqual(['${CLAUDE_PLUGIN_ROOT}/servers/mcp-proxy.mjs']);
    const path = substitutePluginRoot(server?.args[0] ?? '', REPO_ROOT);
    expect(isInside(REPO_ROOT, path)).toBe(true);
    expect(existsSync(path), `${path} (run npm run build)`).toBe(true);
  });
});
