/**
 * The module's off switch (knob `module`, `OPENVIKING_MODULE`): off, every
 * hook only passes the event on (`next(e)`), sets no hand-off flag and draws
 * nothing, so the shell hooks do everything as on a host without modules.
 * Claude Code has no per-plugin switch for a module (D30), hence ours.
 *
 * Read once per session: the variable (`$.env.get`, its name spelled
 * literally: the host refuses a computed one; tests hold it to the knob
 * table), else the plugin option `module` where the manifest declares it
 * (CodeBuddy's; Claude Code hands a module only declared options). On unless
 * switched off, with the words every boolean knob takes (config/scalars.ts).
 *
 * @module
 */
import { parseSwitch } from '../config/scalars.js';
import type { Engine, PluginOptions } from './host.js';

let options: PluginOptions = {};
let decided: Promise<boolean> | undefined;

/** Keeps `register`'s options for the switch. */
export function rememberOptions(given: PluginOptions | undefined): void {
  options = given ?? {};
}

/** `register`'s options (the plugin's `userConfig` values the manifest declares). */
export function pluginOptions(): PluginOptions {
  return options;
}

/** Whether the module does anything this session. */
export function moduleIsOn($: Engine): Promise<boolean> {
  decided ??= readSwitch($);
  return decided;
}

async function readSwitch($: Engine): Promise<boolean> {
  let fromEnv: boolean | undefined;
  try {
    fromEnv = parseSwitch(await $.env.get('OPENVIKING_MODULE'));
  } catch {
    fromEnv = undefined;
  }
  if (fromEnv !== undefined) return fromEnv;
  const option = options['module'];
  if (typeof option === 'boolean') return option;
  return parseSwitch(typeof option === 'string' ? option : undefined) ?? true;
}
