/**
 * The environment the shared rules see in the hooks module: what a hook
 * command of this session would get (D30). The CLI's own variables that the
 * rules read (cliVariables.ts, one `$.env.get` each, all in parallel), the
 * host's additions to its command hooks (`$.process.hookEnv()`:
 * `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PROJECT_DIR`, `CLAUDE_PID`, …) and the
 * plugin's options as the host hands them to hooks
 * (`CODEBUDDY_PLUGIN_OPTION_<KEY>`, `CLAUDE_PLUGIN_OPTION_<KEY>`), so
 * config/pluginOptions.ts reads them under its own spelling.
 *
 * Read once per session (~65 `$.env.get`, ~4 ms): the CLI's environment
 * does not change under a running session but by `$.env.set`, and the
 * variables a module sets are only the hand-off flags, which no rule reads.
 * A change to `~/.claude/settings.json`'s `env` reaches the module in the
 * next session.
 *
 * @module
 */
import { USER_CONFIG_KEYS } from '../../config/pluginOptions.js';
import type { Engine } from '../host.js';
import { hostProfile } from '../hostProfile.js';
import { pluginOptions } from '../moduleSwitch.js';
import { CLI_VARIABLES, readCliVariables } from './cliVariables.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface SessionEnv {
  env: Env;
  /** `HOME` (the hook commands' home directory). */
  homeDir: string;
}

let read: Promise<SessionEnv> | undefined;

/** The session's environment view, read on first use. */
export function sessionEnv($: Engine): Promise<SessionEnv> {
  read ??= readSessionEnv($);
  return read;
}

async function readSessionEnv($: Engine): Promise<SessionEnv> {
  const [values, host] = await Promise.all([Promise.allSettled(readCliVariables($)), hostProfile($)]);
  const env: Record<string, string | undefined> = {};
  CLI_VARIABLES.forEach((name, index) => {
    const value = values[index];
    if (value?.status === 'fulfilled' && typeof value.value === 'string') env[name] = value.value;
  });
  Object.assign(env, host.hookEnv, optionVariables());
  const homeDir = env.HOME;
  if (homeDir === undefined || homeDir === '') throw new Error("HOME is not set in the CLI's environment");
  return { env, homeDir };
}

/** The declared options as a command hook gets them. */
function optionVariables(): Record<string, string> {
  const options = pluginOptions();
  const variables: Record<string, string> = {};
  for (const key of USER_CONFIG_KEYS) {
    const value = options[key];
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') continue;
    variables[`CODEBUDDY_PLUGIN_OPTION_${key.toUpperCase()}`] = String(value);
    variables[`CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`] = String(value);
  }
  return variables;
}
