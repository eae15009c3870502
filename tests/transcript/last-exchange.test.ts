/**
 * The last exchange of a transcript for recall's follow-up query (D43,
 * src/transcript/lastExchange.ts): read from the file's end only, either
 * host's format, the current prompt's own record left out, and never a
 * throw for a missing or broken file.
 */
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastExchangeOf, readLastExchange } from '../../src/transcript/lastExchange.js';
import { turnRecords } from '../capture/support/world.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'last-exchange-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (records: readonly unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

describe('readLastExchange', () => {
  it('answers the last user message and the answer after it (CodeBuddy 2.117 records)', async () => {
    const file = join(dir, 't.jsonl');
    writeFileSync(
      file,
      lines([
        ...turnRecords('s', dir, 'first question', 'first answer'),
        ...turnRecords('s', dir, 'I opened a pull request', 'Vercel made a preview deployment.'),
      ]),
    );
    expect(await readLastExchange(file)).toEqual({
      user: 'I opened a pull request',
      assistant: 'Vercel made a preview deployment.',
    });
  });

  it('leaves out a user record after the last answer (the prompt being recalled for)', () => {
    const [user] = turnRecords('s', dir, 'and how does it ship?', 'unused');
    expect(lastExchangeOf([...turnRecords('s', dir, 'before', 'the answer'), user])).toEqual({
      user: 'before',
      assistant: 'the answer',
    });
  });

  it('reads only the end of a large transcript', async () => {
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, lines(turnRecords('s', dir, `old ${'x'.repeat(200_000)}`, 'old answer')));
    appendFileSync(file, lines(turnRecords('s', dir, 'recent question', 'recent answer')));
    expect(await readLastExchange(file, 4096)).toEqual({ user: 'recent question', assistant: 'recent answer' });
  });

  it('is empty for a missing, empty or broken file', async () => {
    expect(await readLastExchange(join(dir, 'missing.jsonl'))).toEqual({});
    writeFileSync(join(dir, 'empty.jsonl'), '');
    expect(await readLastExchange(join(dir, 'empty.jsonl'))).toEqual({});
    writeFileSync(join(dir, 'broken.jsonl'), '{not json\n\u0000\n');
    expect(await readLastExchange(join(dir, 'broken.jsonl'))).toEqual({});
  });
});
