/**
 * A tiny stand-in plugin that proves the harness itself works, independent of
 * the real plugin's state: every hook appends {event, stdin, plugin root} to a
 * JSONL log, SessionStart/UserPromptSubmit answer a marker context, and a file
 * tool on a `viking://` path is denied with a marker reason. No MCP server, so
 * a run skips the CLI's MCP settle wait.
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Marker texts the probe answers with; the harness test looks for them in model requests. */
export const PROBE_MARKERS = {
  context: (event: string) => `PROBE-CONTEXT-${event}`,
  deny: 'PROBE-DENY use the MCP read tool',
} as const;

export const PROBE_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SubagentStart',
  'SubagentStop',
] as const;

/** One line of the probe log. */
export interface ProbeRecord {
  event: string;
  pluginRoot: string;
  cwd: string;
  stdin: Record<string, unknown>;
}

const PROBE_SCRIPT = `import { appendFileSync, readFileSync } from 'node:fs';
const event = process.argv[2];
let stdin = {};
try { stdin = JSON.parse(readFileSync(0, 'utf8')); } catch {}
appendFileSync(process.env.PROBE_LOG, JSON.stringify({ event, pluginRoot: process.env.CODEBUDDY_PLUGIN_ROOT ?? '', cwd: process.cwd(), stdin }) + '\\n');
if (event === 'SessionStart' || event === 'UserPromptSubmit') {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: 'PROBE-CONTEXT-' + event } }));
} else if (event === 'PreToolUse' && /viking:/i.test(JSON.stringify(stdin.tool_input ?? {}))) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: ${JSON.stringify(PROBE_MARKERS.deny)} } }));
}
`;

function hooksJson(): string {
  const hooks: Record<string, unknown[]> = {};
  for (const event of PROBE_EVENTS) {
    const command = { type: 'command', command: `node "\${CODEBUDDY_PLUGIN_ROOT}/probe.mjs" ${event}`, timeout: 20 };
    hooks[event] = [
      event === 'PreToolUse' || event === 'PostToolUse' ? { matcher: '*', hooks: [command] } : { hooks: [command] },
    ];
  }
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

/** Writes the probe plugin into `dir` (created) under the plugin name `name`. */
export function writeProbePlugin(dir: string, name = 'probe'): string {
  mkdirSync(join(dir, '.codebuddy-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(
    join(dir, '.codebuddy-plugin', 'plugin.json'),
    `${JSON.stringify({ name, version: '0.0.1', description: 'e2e harness probe' }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'hooks', 'hooks.json'), hooksJson());
  writeFileSync(join(dir, 'probe.mjs'), PROBE_SCRIPT);
  return dir;
}

/** Reads the probe log (missing → empty). */
export function readProbeLog(path: string): ProbeRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return []; // no hook has run yet
  }
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ProbeRecord);
}
