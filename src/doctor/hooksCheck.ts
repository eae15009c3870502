/**
 * Doctor check `hooks`: is the plugin's hooks/hooks.json the one the
 * dispatcher expects. Every event the dispatcher answers must be registered;
 * every command must reach the hook entry `scripts/hook.cjs` (directly,
 * through the PreToolUse prefilter, the resident's door for the prompt and
 * the start (D45), or the write-path detacher; a
 * hooks.json of an older release naming its ES shim `scripts/hook.mjs`
 * still reaches it, D38) by a plugin-root placeholder, never a hard-coded
 * path; the entry, its shim and the scripts named must exist; and the
 * prefilter must run under `sh` and pass an ordinary file-tool payload
 * silently.
 *
 * Placeholders: CodeBuddy rewrites both `${CODEBUDDY_PLUGIN_ROOT}` and
 * `${CLAUDE_PLUGIN_ROOT}` in the text; Claude Code rewrites nothing and its
 * /bin/sh expands only `${CLAUDE_PLUGIN_ROOT}` (the former would be empty),
 * so a command must contain `${CLAUDE_PLUGIN_ROOT}` to work on both hosts
 * (the shipped form is the plain `"${CLAUDE_PLUGIN_ROOT}/…"`, which every
 * shell reads, fish included; DESIGN.md D10, D23).
 *
 * @module
 */
import { access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { eventBudgetMs } from '../protocol/budgets.js';
import { isRecord, parseJson } from '../util/json.js';
import { describeJsonSyntax } from '../util/jsonSyntax.js';
import { HOOK_ENTRY, HOOK_SHIM } from '../protocol/entryFiles.js';
import { HOOK_EVENTS } from '../protocol/input.js';
import { readSmallFile } from '../store/smallFile.js';
import type { Check } from './types.js';
import { errorMessage } from '../util/errors.js';
import { counted } from '../util/plural.js';

/** Runs `file args` with `stdin`; the doctor's only process spawn. */
export type RunProgram = (
  file: string,
  args: readonly string[],
  stdin: string,
  timeoutMs: number,
) => Promise<{ code: number | null; stdout: string }>;

const PREFILTER = join('hooks', 'guard-prefilter.sh');
const DETACHER = join('hooks', 'detach.sh');
const DOOR = join('hooks', 'relay.sh');
const PREFILTER_TIMEOUT_MS = 2_000;
/** hooks.json is ~2 KB. */
const MAX_HOOKS_JSON_BYTES = 1024 * 1024;
/** A payload the prefilter must pass without starting node. */
const ORDINARY_READ = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'Read',
  tool_input: { file_path: '/etc/hostname' },
});

interface CommandEntry {
  event: string;
  command: string;
}

export async function checkHooks(pluginRoot: string, runProgram: RunProgram): Promise<Check> {
  const base = { id: 'hooks', title: 'Hooks' };
  const file = join(pluginRoot, 'hooks', 'hooks.json');
  let commands: CommandEntry[];
  try {
    const read = readSmallFile(file, MAX_HOOKS_JSON_BYTES);
    if (read.absent !== undefined) throw new Error(read.why);
    const parsed = parseJson(read.text);
    if (parsed === undefined) throw new Error(`is not valid JSON (${describeJsonSyntax(read.text)})`);
    commands = commandsOf(parsed);
  } catch (error) {
    const reason = errorMessage(error);
    return {
      ...base,
      status: 'fail',
      lines: [`${file} cannot be read: ${reason}`],
      fix: 'Reinstall the plugin: its hooks/hooks.json is missing or broken.',
    };
  }
  const problems: string[] = [];
  const warnings: string[] = [];
  const registered = new Set(commands.map((entry) => entry.event));
  for (const event of HOOK_EVENTS)
    if (eventBudgetMs(event) !== undefined && !registered.has(event)) problems.push(`${event} is not registered`);
  for (const { event, command } of commands) {
    if (!targetOf(command)) problems.push(`${event}: "${command}" does not run ${HOOK_ENTRY}`);
    if (!/\$\{(CODEBUDDY|CLAUDE)_PLUGIN_ROOT(:-[^}]*\})?\}/.test(command))
      problems.push(`${event}: "${command}" does not use a plugin-root placeholder`);
    else if (!command.includes('${CLAUDE_PLUGIN_ROOT}'))
      warnings.push(`${event}: uses \${CODEBUDDY_PLUGIN_ROOT}, which Claude Code does not substitute`);
  }
  const referenced = [
    HOOK_ENTRY,
    HOOK_SHIM,
    ...[PREFILTER, DETACHER, DOOR].filter((script) =>
      commands.some((entry) => entry.command.includes(script.split('/').pop() ?? script)),
    ),
  ];
  for (const target of referenced) {
    if (!(await readable(join(pluginRoot, target))))
      problems.push(`${target} is missing (run \`npm run build\` in a checkout)`);
  }
  const prefilter = await runPrefilter(pluginRoot, runProgram);
  if (prefilter) problems.push(prefilter);

  const events = [...registered];
  const lines = [
    `${file}: ${counted(commands.length, 'command')} on ${counted(events.length, 'event')} (${events.join(', ')})`,
  ];
  if (!prefilter) lines.push('prefilter runs under sh and passes an ordinary Read silently');
  lines.push(...problems, ...uniqueWarnings(warnings));
  const data = { file, events, problems, warnings };
  if (problems.length > 0)
    return {
      ...base,
      status: 'fail',
      lines,
      fix: 'Reinstall the plugin, or restore hooks/hooks.json from the release.',
      data,
    };
  if (warnings.length > 0) {
    return {
      ...base,
      status: 'warn',
      lines,
      fix: 'Only matters on Claude Code: write ${CLAUDE_PLUGIN_ROOT} in hooks/hooks.json (CodeBuddy substitutes it too).',
      data,
    };
  }
  return { ...base, status: 'pass', lines, data };
}

/**
 * The plugin file a command runs: the prefilter, the door (the start's command names the detacher too, for the
 * module's hand-off only), the detacher or the hook entry (or its shim); undefined for none.
 */
function targetOf(command: string): string | undefined {
  if (command.includes('guard-prefilter.sh')) return PREFILTER;
  if (command.includes('relay.sh')) return DOOR;
  if (command.includes('detach.sh')) return DETACHER;
  return command.includes(HOOK_ENTRY) || command.includes(HOOK_SHIM) ? HOOK_ENTRY : undefined;
}

function commandsOf(config: unknown): CommandEntry[] {
  const hooks = isRecord(config) ? config['hooks'] : undefined;
  if (!isRecord(hooks)) throw new Error('no "hooks" object');
  const entries: CommandEntry[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const list = isRecord(group) && Array.isArray(group['hooks']) ? group['hooks'] : [];
      for (const hook of list)
        if (isRecord(hook) && typeof hook['command'] === 'string') entries.push({ event, command: hook['command'] });
    }
  }
  return entries;
}

async function readable(path: string): Promise<boolean> {
  return access(path, constants.R_OK).then(
    () => true,
    () => false,
  );
}

/** Undefined when the prefilter behaves; otherwise what went wrong. */
async function runPrefilter(pluginRoot: string, runProgram: RunProgram): Promise<string | undefined> {
  const path = join(pluginRoot, PREFILTER);
  if (!(await readable(path))) return undefined;
  try {
    const run = await runProgram('sh', [path], ORDINARY_READ, PREFILTER_TIMEOUT_MS);
    if (run.code !== 0) return `prefilter exited ${String(run.code)} on an ordinary Read`;
    if (run.stdout.trim() !== '') return 'prefilter printed output on an ordinary Read (it must pass silently)';
    return undefined;
  } catch (error) {
    return `prefilter could not run under sh: ${errorMessage(error)}`;
  }
}

function uniqueWarnings(warnings: string[]): string[] {
  return warnings.length <= 1
    ? warnings
    : [`${warnings.length} commands use \${CODEBUDDY_PLUGIN_ROOT}, which Claude Code does not substitute`];
}
