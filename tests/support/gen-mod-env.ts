/**
 * Rewrites src/mod/env/cliVariables.ts (the hooks module's `$.env.get` of
 * every variable it reads) from tests/support/mod-env.ts.
 * Run: `npx tsx tests/support/gen-mod-env.ts` (from the repository root).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCliVariables } from './mod-env.js';

const FILE = new URL('../../src/mod/env/cliVariables.ts', import.meta.url);
let before = '';
try {
  before = readFileSync(FILE, 'utf8');
} catch {
  // first time
}
const after = renderCliVariables();
if (after === before) console.log('src/mod/env/cliVariables.ts is up to date');
else {
  writeFileSync(FILE, after);
  console.log('src/mod/env/cliVariables.ts rewritten');
}
