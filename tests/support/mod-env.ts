/**
 * The variables the hooks module reads from the CLI's environment, and the
 * file that reads them (src/mod/env/cliVariables.ts). The host lets a module
 * read only variables its source names literally (`$.env.get('NAME')`, FC8),
 * so the file spells each one out; it is written from here
 * (`npx tsx tests/support/gen-mod-env.ts`) and tests/mod/env.test.ts checks
 * that it is fresh and that the shared rules read nothing else.
 *
 * The list: every knob's variable (src/config/knobs/), the credential
 * chain's (src/config/credentials.ts), and the places (HOME and the data
 * and config directory overrides, src/store/paths.ts). The host's own
 * variables (CLAUDE_PLUGIN_ROOT, CLAUDE_PROJECT_DIR, CLAUDE_PID, …) come
 * from `$.process.hookEnv()`, the plugin's options from `register`.
 *
 * @module
 */
import { KNOB_TABLE } from '../../src/config/knobs/index.js';

/** What src/config/credentials.ts reads besides the knobs. */
export const CREDENTIAL_VARIABLES = [
  'OPENVIKING_URL',
  'OPENVIKING_BASE_URL',
  'OPENVIKING_API_KEY',
  'OPENVIKING_BEARER_TOKEN',
  'OPENVIKING_ACCOUNT',
  'OPENVIKING_USER',
  'OPENVIKING_PEER_ID',
  'OPENVIKING_MCP_URL',
  'OPENVIKING_CREDENTIAL_SOURCE',
  'OPENVIKING_CREDENTIALS_SOURCE',
  'OPENVIKING_CLI_CONFIG_FILE',
  'OPENVIKING_CONFIG_FILE',
] as const;

/** Where things are: the home directory, the data directory's override and CodeBuddy's config directory (src/store/paths.ts). */
export const PLACE_VARIABLES = ['HOME', 'OPENVIKING_CODEBUDDY_DATA_DIR', 'CODEBUDDY_CONFIG_DIR'] as const;

export function moduleVariables(): string[] {
  return [
    ...new Set([...PLACE_VARIABLES, ...CREDENTIAL_VARIABLES, ...Object.values(KNOB_TABLE).map((knob) => knob.env)]),
  ];
}

/** The text of src/mod/env/cliVariables.ts. */
export function renderCliVariables(names: readonly string[] = moduleVariables()): string {
  return [
    '/**',
    " * The variables of the CLI's environment the hooks module reads: every",
    " * knob's, the credential chain's, and the places (D30). The host lets a",
    ' * module read only variables its source names literally, so each is',
    ' * spelled out. Written by tests/support/gen-mod-env.ts; do not edit',
    ' * (tests/mod/env.test.ts checks it).',
    ' *',
    ' * @module',
    ' */',
    "import type { Engine } from '../host.js';",
    '',
    '/** The names, in the order `readCliVariables` asks for them. */',
    'export const CLI_VARIABLES = [',
    ...names.map((name) => `  '${name}',`),
    '] as const;',
    '',
    '/** One `$.env.get` per name of CLI_VARIABLES, in its order. */',
    'export function readCliVariables($: Engine): Array<Promise<string | undefined>> {',
    '  return [',
    ...names.map((name) => `    $.env.get('${name}'),`),
    '  ];',
    '}',
    '',
  ].join('\n');
}
