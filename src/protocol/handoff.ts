/**
 * The hand-off between the hooks module (src/mod/, which only Claude Code
 * loads, D31) and this plugin's own hook commands, so an event the module
 * handles is not handled again by a hook command (D30).
 *
 * Claude Code runs a plugin's module AND its hook commands for the same
 * event; answering a `classic.<Event>` without `next()` would silence
 * everyone else's hooks too (FC11). So the module lets `next(e)` run every
 * hook command and tells ours to step aside through the environment: just
 * before its `next(e)` it sets the kind's flag (`$.env.set`, which every
 * process the host starts after inherits, FC9) to the host process's id
 * (`CLAUDE_PID`), and clears it after.
 *
 * An inherited variable must never make a hook step aside: Claude Code gives
 * `CLAUDE_PID` to every Bash-tool process and a standing flag to every child
 * started while it stands, so a CLI started from there inherits both (FC23).
 * A hook command steps aside only when
 * - its flag equals `$PPID`, the process that started the hook's shell:
 *   Claude Code runs a hook as `/bin/sh -c` from its own process (FC21), so
 *   only the host whose module set the flag matches; no other process has
 *   that pid while the host lives, and an inherited flag names the ancestor;
 * - and `CODEBUDDY_PLUGIN_ROOT` is empty: CodeBuddy sets it for every hook it
 *   runs (F2's row, S000 §2) and never loads the module, so no environment,
 *   however made, silences a hook of CodeBuddy (not even one that names the
 *   CLI's own pid: F21).
 * The node side never decides from the environment: a handed-off start
 * reaches the dispatcher as `hook.cjs detached` (the argument is the mark:
 * stages/start.ts), a handed-off prompt never starts node.
 *
 * The guard has no hand-off: the module refuses a `viking://` call before any
 * PreToolUse hook runs (FC10), and on the calls it lets through our
 * prefilter judges again without starting node (D3), so nothing the module
 * leaves behind (an unload, FC13) can let a call through unguarded (D31).
 *
 * Both sides read their names here: the module (which must spell each
 * `$.env` name literally: a test holds its literals to this table) and the
 * hooks.json command prefix (a POSIX test that exits before node starts,
 * valid under sh, bash, dash, zsh and fish 3).
 *
 * @module
 */

/** What the module may take over, each with its own flag, so one kind failing never silences another. */
export type HandoffKind = 'prompt' | 'start';

/** The variable each kind's flag lives in. */
export const HANDOFF_FLAGS: Readonly<Record<HandoffKind, string>> = {
  /** UserPromptSubmit: the module recalled for this prompt. */
  prompt: 'OPENVIKING_MODULE_PROMPT',
  /** SessionStart: the module injected the profile and listing; the hook's housekeeping runs detached. */
  start: 'OPENVIKING_MODULE_START',
};

/** Where the module finds the host process's id, the value of its flags: Claude Code's pid (`$.process.hookEnv()`). */
export const HOST_PROCESS_ID = 'CLAUDE_PID';

/** Set by CodeBuddy for every hook it runs: a hook command with it never steps aside, and a module that sees it hands nothing off. */
export const CODEBUDDY_HOOK_MARK = 'CODEBUDDY_PLUGIN_ROOT';

/**
 * The command prefix that ends a hook command before its own program starts
 * when `kind` is handed off: `[ -z "$CODEBUDDY_PLUGIN_ROOT" ] && [ -n "$F" ]
 * && [ "$F" = "$PPID" ] && exit 0; `, or `&& <instead>; ` (the session
 * start's: `exec sh …/detach.sh`, its housekeeping off the host's clock).
 * `[`, `&&`, `;`, `exit` and `exec` mean the same in sh, bash, dash, zsh and
 * fish 3, and an unset variable in double quotes is the empty string in all
 * of them.
 */
export function stepAsidePrefix(kind: HandoffKind, instead = 'exit 0'): string {
  const flag = `"$${HANDOFF_FLAGS[kind]}"`;
  return `[ -z "$${CODEBUDDY_HOOK_MARK}" ] && [ -n ${flag} ] && [ ${flag} = "$PPID" ] && ${instead}; `;
}

/** What the session start's command runs instead of the dispatcher when handed off: the detacher (D11), which reads the payload and returns. */
export const START_INSTEAD = 'exec sh "${CLAUDE_PLUGIN_ROOT}/hooks/detach.sh"';
