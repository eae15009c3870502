/**
 * The plugin's slash commands are the user's to type, never the model's
 * (issue 20 item 3, DESIGN F20, D27). Each says `disable-model-invocation:
 * true`, but CodeBuddy 2.117 only leaves such a command out of a listing:
 * its Skill tool (no approval asked) and SlashCommand tool still expand one
 * the model names, and the expansion runs any `!`…`` in the arguments the
 * model wrote (the host appends `ARGUMENTS: …` even to a command without
 * `$ARGUMENTS`). Seen on the real CLI: `Skill {skill:"openviking:remember",
 * args:"!`touch x`"}` created x. So the PreToolUse guard denies a Skill or
 * SlashCommand call that names an `openviking:` command, on every host.
 *
 * The prefilter lets these calls through to node because the name holds
 * `viking:`; any other skill or command stays on the prefilter's no-node
 * path (`openviking-memory`, the plugin's skill, has no colon).
 *
 * @module
 */
import { isRecord } from '../util/json.js';

/** The tools through which a host lets the model run a slash command. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(['Skill', 'SlashCommand']);

/** The `openviking:<name>` command a Skill or SlashCommand call names, or undefined. */
export function pluginCommandNamed(toolInput: unknown): string | undefined {
  if (!isRecord(toolInput)) return undefined;
  for (const key of ['skill', 'command', 'name'] as const) {
    const value = toolInput[key];
    if (typeof value !== 'string') continue;
    const name = value.trim().replace(/^\/+/, '').split(/\s/)[0]?.toLowerCase() ?? '';
    if (name.startsWith('openviking:')) return name.slice(0, 64);
  }
  return undefined;
}

/** The reason the model reads when its call is denied. */
export function commandDenyReason(command: string): string {
  return [
    `/${command} is a command for the user to type, not for the model: the host would run any !\`…\` in its arguments without asking.`,
    'Do what it does with the OpenViking MCP tools instead (search, read, remember, forget), or tell the user they can type the command.',
  ].join('\n');
}
