/**
 * The hooks module's types contract (.claude-plugin/module-types.d.ts, named by
 * `types` in .claude-plugin/plugin.json): Claude Code refuses a module whose
 * `$.state` keys it does not declare, and `claude plugin validate` checks it
 * (FC24; e2e plugin-validate runs the validators). The card takes its types
 * from the contract (card/turns.ts); here: the state entry holds exactly the
 * card's values (a type check `npm run typecheck` makes, with
 * src/mod/claude-code-module.d.ts opening the module it augments), and the
 * keys the BUILT module reads and writes are exactly the keys it declares,
 * so a new `$.state` value fails here before it reaches a host.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginState } from 'claude-code';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CardData } from '../../src/mod/card/persist.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const CONTRACT = readFileSync(join(REPO_ROOT, '.claude-plugin', 'module-types.d.ts'), 'utf8');
const BUNDLE = readFileSync(join(REPO_ROOT, 'hooks', 'register.mjs'), 'utf8');

describe('the types contract', () => {
  it('declares each value with the shape the card keeps under its key (card/persist.ts)', () => {
    expectTypeOf<PluginState['openviking']>().toEqualTypeOf<{
      cardTurns: CardData['turns'];
      cardReplies: CardData['replies'];
      cardExpanded: CardData['expanded'];
    }>();
  });

  it('names exactly the $.state keys the built module uses', () => {
    const used = [...BUNDLE.matchAll(/\{ plugin: "openviking", key: "(\w+)" \}/g)].map((match) => match[1]);
    const block = CONTRACT.slice(CONTRACT.indexOf('openviking: {'));
    const declared = [...block.matchAll(/^\s+(\w+): /gm)].map((match) => match[1]);
    expect(used.length).toBeGreaterThan(0);
    expect([...new Set(used)].sort()).toEqual([...new Set(declared)].sort());
  });
});
