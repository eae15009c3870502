/**
 * The module's off switch (knob `module`, `OPENVIKING_MODULE`): off, every
 * hook only passes the event on (`next(e)`), sets no hand-off flag and draws
 * nothing, so the hook commands do everything as on a host without modules.
 * Claude Code has no per-plugin switch for a module (D30), hence ours.
 *
 * Read once per session from the CLI's environment (`$.env.get`, its name
 * spelled literally: the host refuses a computed one; tests hold it to the
 * knob table), which `~/.claude/settings.json`'s `env` reaches too (FC9).
 * On unless switched off, with the words every boolean knob takes
 * (config/scalars.ts). No plugin option: Claude Code hands a module only
 * the options its manifest declares (FC9), and ours declares none.
 *
 * Also keeps `register`'s options, which the module's environment view
 * hands on under the hooks' names (env/sessionEnv.ts).
 *
 * @module
 */
import { parseSwitch } from '../config/scalars.js';
import type { Engine, PluginOptions } from './host.js';

let options: PluginOptions = {};
let decided: Promise<boolean> | undefined;

/** Keeps `register`'s options (the manifest's declared `userConfig` values). */
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
  try {
    return parseSwitch(await $.env.get('OPENVIKING_MODULE')) ?? true;
  } catch {
    return true;
  }
}
