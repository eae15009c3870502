/**
 * The hand-off between the in-process hooks module (src/mod/) and this
 * plugin's own shell hooks, so an event the module handles is not handled
 * again by the shell path (D30).
 *
 * Claude Code runs a plugin's module AND its shell hooks for the same event;
 * answering a `classic.<Event>` without `next()` would silence everyone
 * else's hooks too. So the module lets `next(e)` run every shell hook and
 * tells ours to step aside through the environment: before its `next(e)` it
 * sets a flag per event kind (`$.env.set`, which every hook started after
 * inherits) to the host process's discriminator (`CLAUDE_PID`, which Claude
 * Code gives every command hook), and clears it after. A shell hook steps
 * aside only when the flag is set AND equal to its own `CLAUDE_PID`: on a
 * host without modules both are unset (`"" = ""` would be true, hence the
 * non-empty test), and a CLI started from a Bash tool inherits the flag but
 * has a `CLAUDE_PID` of its own.
 *
 * Both sides read their names here: the module (which must spell each
 * `$.env.set` name literally: a test holds its literals to this table), the
 * hooks.json command prefix (a POSIX test that exits before node starts,
 * valid under sh, bash, dash, zsh and fish 3) and the node stages (one env
 * read, no import of their own).
 *
 * @module
 */

/** What the module may take over, each with its own flag, so one kind failing never silences another. */
export type HandoffKind = 'guard' | 'prompt' | 'start';

/** The variable each kind's flag lives in. */
export const HANDOFF_FLAGS: Readonly<Record<HandoffKind, string>> = {
  /** PreToolUse on the file tools: the module judged this call (guard-prefilter.sh need not run). */
  guard: 'OPENVIKING_MODULE_GUARD',
  /** UserPromptSubmit: the module recalled for this prompt. */
  prompt: 'OPENVIKING_MODULE_PROMPT',
  /** SessionStart: the module injected the profile and listing; the hook's housekeeping runs detached. */
  start: 'OPENVIKING_MODULE_START',
};

/** The variable that tells one host process from another: Claude Code's pid, in every command hook's environment. */
export const HOST_DISCRIMINATOR = 'CLAUDE_PID';

type Env = Readonly<Record<string, string | undefined>>;

/** True when the module said it handles `kind` for the process that started this hook. */
export function handedOff(env: Env, kind: HandoffKind): boolean {
  const flag = env[HANDOFF_FLAGS[kind]];
  return flag !== undefined && flag !== '' && flag === env[HOST_DISCRIMINATOR];
}

/**
 * The command prefix that ends a shell hook before its own program starts
 * when `kind` is handed off: `[ -n "$F" ] && [ "$F" = "$CLAUDE_PID" ] && exit 0; `,
 * or `&& <instead>; ` (the session start's: `exec sh …/detach.sh`, its
 * housekeeping off the host's clock). `[`, `&&`, `;`, `exit` and `exec` mean
 * the same in sh, bash, dash, zsh and fish 3, and an unset variable in
 * double quotes is the empty string in all of them.
 */
export function stepAsidePrefix(kind: HandoffKind, instead = 'exit 0'): string {
  const flag = `"$${HANDOFF_FLAGS[kind]}"`;
  return `[ -n ${flag} ] && [ ${flag} = "$${HOST_DISCRIMINATOR}" ] && ${instead}; `;
}

/** What the session start's command runs instead of the dispatcher when handed off: the detacher (D11), which reads the payload and returns. */
export const START_INSTEAD = 'exec sh "${CLAUDE_PLUGIN_ROOT}/hooks/detach.sh"';
