/**
 * The built hooks module against the hosts' load-time source rules
 * (tests/support/mods-harness/sourceRules.ts; the real CLIs loading it is
 * e2e claude-module). The checker is shown each refusal the hosts printed,
 * so a pass means something; then the shipped hooks/register.mjs must pass,
 * hook the events the module is built for, and name in `$.env` only the
 * variables the shared rules read (tests/support/mod-env.ts) and
 * CodeBuddy's hook mark, and set only the hand-off flags.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEBUDDY_HOOK_MARK, HANDOFF_FLAGS } from '../../src/protocol/handoff.js';
import { checkModuleSource } from '../support/mods-harness/sourceRules.js';
import { moduleVariables } from '../support/mod-env.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const GOOD = `
function hook($, e, next) { return helper($, e).then(() => next(e)); }
async function helper($, e) { await $.ui.log('x'); const v = await $.env.get("HOME"); return v; }
export function register(on, options) {
  on('tool.call', { tool: 'Read' }, hook);
  on('classic.*', hook);
}
`;

describe('the source checker refuses what the hosts refuse', () => {
  it('accepts a module written the way the hosts load', () => {
    expect(checkModuleSource(GOOD)).toMatchObject({
      problems: [],
      events: ['tool.call', 'classic.*'],
      envGets: ['HOME'],
    });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a node builtin', `import { readFileSync } from "node:fs";\n${GOOD}`, /imports "node:fs"/],
    ['a sibling file', `import { x } from "./lib.mjs";\n${GOOD}`, /imports "\.\/lib\.mjs"/],
    ['a dynamic import', GOOD.replace("await $.ui.log('x');", "await import('./lib.mjs');"), /dynamic import/],
    ['eval', GOOD.replace("await $.ui.log('x');", "eval('1');"), /calls eval/],
    ['new Function', GOOD.replace("await $.ui.log('x');", "new Function('return 1');"), /new Function/],
    [
      'a computed event name',
      GOOD.replace("on('classic.*', hook);", "for (const ev of ['a']) on(ev, hook);"),
      /not a string literal/,
    ],
    ['"classic." as a pattern', GOOD.replace("'classic.*'", "'classic.'"), /not an event name or a pattern/],
    [
      'a hook declared inside register',
      GOOD.replace("on('classic.*', hook);", "const local = ($, e, next) => next(e); on('classic.*', local);"),
      /not a function declared at the top/,
    ],
    [
      'arguments in register',
      GOOD.replace("on('classic.*', hook);", "on('classic.*', hook); console.log(arguments.length);"),
      /reads arguments/,
    ],
    ['a computed $.env name', GOOD.replace('$.env.get("HOME")', '$.env.get(name)'), /computed name/],
    [
      '$ handed to a local function',
      GOOD.replace("await $.ui.log('x');", "const log = (x) => x.ui.log('y'); log($);"),
      /\$ used as log\(\$\)/,
    ],
    [
      '$ read without a call',
      GOOD.replace("await $.ui.log('x');", "if (typeof $.process.hookEnv === 'function') {}"),
      /not \$\.noun\.op/,
    ],
    ['another export', `${GOOD}\nexport const extra = 1;`, /not register alone/],
  ];
  for (const [name, source, problem] of refused) {
    it(`refuses ${name}`, () => {
      expect(checkModuleSource(source).problems.join('\n')).toMatch(problem);
    });
  }
});

describe('hooks/register.mjs (npm run build)', () => {
  const report = checkModuleSource(readFileSync(join(REPO_ROOT, 'hooks', 'register.mjs'), 'utf8'));

  it('keeps every load-time rule', () => {
    expect(report.problems).toEqual([]);
  });

  it('hooks the guard, the start block, recall and the card; nothing of capture', () => {
    expect(report.events).toEqual([
      'tool.call',
      'tool.call',
      'session.start',
      'command.run',
      'classic.SessionStart',
      'classic.UserPromptSubmit',
      'session.append',
      'turn.complete',
      'ui.render',
    ]);
  });

  it("reads only the variables the shared rules read and CodeBuddy's hook mark, and writes only the hand-off flags", () => {
    // The mark: under it our hook commands never step aside, so the module hands nothing off (hostProfile.ts, D31).
    expect([...new Set(report.envGets)].sort()).toEqual([...moduleVariables(), CODEBUDDY_HOOK_MARK].sort());
    expect([...new Set(report.envSets)].sort()).toEqual(Object.values(HANDOFF_FLAGS).sort());
  });
});
