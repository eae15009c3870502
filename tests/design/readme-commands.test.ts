/**
 * Every command in the README is run by a test or named as not runnable
 * here (issue 30): docs/readme-commands.md has one row per command of the
 * README's shell blocks, naming the test (or the CI entry) that runs it,
 * or why it cannot run here. A command added to the README, or a row left
 * behind, fails this; so does a row naming a file that does not exist.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeCommands } from '../support/readme.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

/** Command → what runs it, from the table of docs/readme-commands.md. */
function rows(): Map<string, string> {
  const table = readFileSync(join(REPO_ROOT, 'docs', 'readme-commands.md'), 'utf8');
  const found = new Map<string, string>();
  for (const line of table.split('\n')) {
    const row = /^\| `(.+?)` \| (.+) \|$/.exec(line);
    if (row?.[1] !== undefined && row[2] !== undefined) found.set(row[1], row[2]);
  }
  return found;
}

describe("the README's commands", () => {
  it('each has a row in docs/readme-commands.md, and each row a command of the README', () => {
    const commands = readmeCommands();
    const table = rows();
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((command) => !table.has(command))).toEqual([]);
    expect([...table.keys()].filter((command) => !commands.includes(command))).toEqual([]);
  });

  it('each row names files that exist, or says why the command cannot run here', () => {
    for (const [command, runBy] of rows()) {
      if (runBy.startsWith('Not run')) continue;
      const files = [...runBy.matchAll(/`((?:tests|\.ci)\/[^`]+)`/g)].map((match) => match[1] as string);
      expect(files.length, command).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(join(REPO_ROOT, file)), `${command}: ${file}`).toBe(true);
    }
  });
});
