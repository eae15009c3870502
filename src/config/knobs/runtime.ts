/**
 * How the plugin runs on the machine: the resident helper, the in-process
 * hooks module, and the debug log.
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';
import { SECOND } from './units.js';
import { DEFAULT_DEBUG_LOG_PATH } from '../scalars.js';

export const RUNTIME_KNOBS = {
  resident: {
    env: 'OPENVIKING_RESIDENT',
    type: 'bool',
    default: true,
    description:
      'Keep the resident helper that answers prompt hooks (see README: The resident helper); off: each prompt hook recalls by itself (always so on Windows).',
  },
  residentIdleMs: {
    env: 'OPENVIKING_RESIDENT_IDLE_MS',
    type: 'int',
    default: 15 * 60 * SECOND,
    min: 100,
    max: 12 * 3600 * SECOND,
    description: 'The resident helper leaves after this long without a prompt.',
  },
  module: {
    env: 'OPENVIKING_MODULE',
    type: 'bool',
    default: true,
    description:
      'The in-process hooks module on Claude Code 2.1.328+ (the only host that loads it; see Hosts and versions); off: it only passes every event on and the hook commands do everything, as on CodeBuddy. The module reads this variable (from the environment or `~/.claude/settings.json` `env`), not ovcli.conf.',
  },
  debug: {
    env: 'OPENVIKING_DEBUG',
    type: 'bool',
    default: false,
    description:
      "Write a JSON-lines debug log (hooks, workers, resident, doctor; the MCP tools log to the host's MCP log).",
  },
  debugLogPath: {
    env: 'OPENVIKING_DEBUG_LOG',
    type: 'path',
    default: DEFAULT_DEBUG_LOG_PATH,
    description: 'Where the debug log goes; `~` is your home directory, and a relative path is taken from it.',
  },
} satisfies Partial<KnobTable>;
