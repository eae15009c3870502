/**
 * What each switch turns off, decided in one place so the hooks, the
 * background workers, the MCP proxy and the shell commands cannot disagree
 * (DESIGN D25):
 *
 * - **Memory off** (`enabled` false: `OPENVIKING_MEMORY_ENABLED=false`,
 *   `plugin.codebuddy.enabled: false` in ovcli.conf, or `enabled: false` in
 *   the workspace's `.openviking/config.json`) and a **bypassed** session or
 *   folder (`OPENVIKING_BYPASS_SESSION`, `OPENVIKING_BYPASS_SESSION_PATTERNS`):
 *   nothing leaves the machine for it on any path: no recall, no start reads,
 *   no capture, no commit of its sessions, no replay of its queued turns,
 *   no MCP call (the proxy answers "memory is off here" itself), no recall
 *   preview.
 * - **Auto-capture off**: nothing of the conversation is stored: no capture,
 *   no replay of queued turns, no commit of earlier sessions. Recall is
 *   governed by auto-recall alone, and the MCP tools (the agent's explicit
 *   calls, e.g. `/openviking:remember`) keep working.
 * - **Auto-recall off**: no recall before a prompt. **Auto-profile off**: no
 *   profile or listing read at session start.
 *
 * Each answer is a short reason naming the switch and where it was set, for
 * the debug log, the proxy's answer and doctor.
 *
 * @module
 */
import type { PluginConfig, Settings } from '../config/types.js';
import { KNOB_TABLE } from '../config/knobs/index.js';
import { projectFor, type Project } from '../project/identity.js';
import { bypassMatch } from './bypass.js';

/** Where the switches are read for one session or folder. */
export interface SwitchScope {
  config: PluginConfig;
  /** The workspace's project: which switches its `.openviking/` files turn off, each with the key and file. */
  project: Pick<Project, 'off'>;
  /** The host's session id, when known (the MCP proxy never knows it). */
  sessionId?: string;
  /** The workspace folder, when known. */
  workspace?: string;
}

/** The scope of `workspace` under `config` (reads the workspace file through the project cache). */
export function scopeOf(
  config: PluginConfig,
  workspace: string,
  homeDir: string,
  now: number,
  sessionId?: string,
): SwitchScope {
  const { project } = projectFor(config, workspace, homeDir, now);
  return { config, project, workspace, ...(sessionId !== undefined ? { sessionId } : {}) };
}

/** Why memory is off for this session or folder (memory switch or bypass), or undefined when it is on. */
export function memoryOffReason(scope: SwitchScope): string | undefined {
  const off = switchedOff(scope, 'enabled');
  if (off !== undefined) return off;
  const bypass = bypassMatch(scope.config.settings, scope.sessionId, scope.workspace);
  if (bypass === undefined) return undefined;
  if (bypass.by === 'switch') return settingText(scope.config, 'bypassSession', 'on');
  const where = bypass.subject === 'folder' ? 'this folder' : "this session's id";
  return `${where} matches the bypass pattern "${bypass.pattern}" (${sourceText(scope.config, 'bypassPatterns')})`;
}

/** Why nothing of the conversation may be stored here (memory off, bypass, or auto-capture off), or undefined. */
export function captureOffReason(scope: SwitchScope): string | undefined {
  return memoryOffReason(scope) ?? switchedOff(scope, 'autoCapture');
}

/** The reason a boolean switch is off here: the workspace file first (it can only turn things off), then the configuration. */
function switchedOff(scope: SwitchScope, key: 'enabled' | 'autoCapture'): string | undefined {
  const byWorkspace = scope.project.off[key];
  if (byWorkspace !== undefined) return byWorkspace;
  return scope.config.settings[key] ? undefined : settingText(scope.config, key, 'false');
}

/** `OPENVIKING_X=value`, or `plugin.codebuddy.<key>: value in <file>` when the file set it; a privacy switch's word it did not understand as written. */
export function settingText(config: PluginConfig, key: keyof Settings, shown: string): string {
  const unclear = config.failedClosed?.[key];
  if (unclear !== undefined) return `${unclear} (not true or false: read as ${shown})`;
  const source = config.settingSources?.[key];
  const file = fileOf(source);
  return file === undefined ? `${KNOB_TABLE[key].env}=${shown}` : `plugin.codebuddy.${key}: ${shown} in ${file}`;
}

function sourceText(config: PluginConfig, key: keyof Settings): string {
  const file = fileOf(config.settingSources?.[key]);
  return file === undefined ? KNOB_TABLE[key].env : `plugin.codebuddy.${key} in ${file}`;
}

/** `file:<path>#<field>` → `<path>`. */
function fileOf(source: string | undefined): string | undefined {
  if (source === undefined || !source.startsWith('file:')) return undefined;
  const hash = source.indexOf('#');
  return source.slice('file:'.length, hash === -1 ? undefined : hash);
}
