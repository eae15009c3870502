/**
 * The README's shell commands, read from its ```sh blocks, for the tests
 * that hold the README to what the code does (issue 30): one list for
 * tests/design/readme-commands.test.ts (every command has a runner) and
 * tests/ov-server/cli.test.ts (the quick start's commands run as written).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './spawn-hook.js';

export function readme(): string {
  return readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
}

/** The text of the `## ` section whose heading starts with `heading`; throws when there is none. */
export function readmeSection(heading: string): string {
  const text = readme();
  const start = text.indexOf(`\n## ${heading}`);
  if (start === -1) throw new Error(`README.md has no section "## ${heading}…"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The commands of the ```sh blocks of `text` (the whole README by default), one per line, without comments. */
export function readmeCommands(text = readme()): string[] {
  const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return [...new Set(commands)];
}
