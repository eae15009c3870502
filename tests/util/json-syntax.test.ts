/**
 * util/jsonSyntax.ts: a parse failure is located by line and column and
 * described in the plugin's own words, never by quoting the text (issue 29
 * item 4). It must agree with `JSON.parse` on what is JSON, or a file the
 * engine refuses could be described as fine (or the reverse).
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { describeJsonSyntax, jsonSyntaxProblem } from '../../src/util/jsonSyntax.js';

describe('jsonSyntaxProblem', () => {
  it.each([
    ['{\n  "url": "http://x",\n}', 2, 20, "a comma before '}' (a trailing comma)"],
    ['[1, 2,\n]', 1, 6, "a comma before ']' (a trailing comma)"],
    ['https://alice:secret@github.com', 1, 1, 'not a JSON value here'],
    ["{'url': 1}", 1, 2, 'expected a property name in double quotes'],
    ['{"a" 1}', 1, 6, "expected ':' after the property name"],
    ['{"a": 1 "b": 2}', 1, 9, "expected ',' or '}'"],
    ['{"a": 1', 1, 8, 'the text ends early'],
    ['{"a": "b\nc"}', 1, 9, 'a line break or control character inside a string'],
    ['{"a": "b\\qc"}', 1, 9, 'a backslash that starts no valid escape'],
    ['{"a": "\\u12"}', 1, 8, 'a \\u escape without four hex digits'],
    ['{"a": "never closed}', 1, 7, 'a string that is never closed'],
    ['{"a": 01}', 1, 7, 'an invalid number'],
    ['{"a": tru}', 1, 7, 'not a JSON value here'],
    ['{} {}', 1, 4, 'more text after the end of the JSON value'],
    ['   ', 1, 4, 'no JSON value at all'],
    ['\ufeff{}', 1, 1, 'a byte-order mark'],
  ])('%j: line %i, column %i', (text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = jsonSyntaxProblem(text);
    expect(found).toMatchObject({ line, column });
    expect(found?.problem).toContain(problem);
  });

  it('quotes nothing of the text it describes', () => {
    const secret = 'ghp_0123456789abcdefghij0123456789abcdef';
    for (const text of [
      `https://alice:${secret}@github.com`,
      `{"token": "${secret}",}`,
      `{"token": ${secret}}`,
      `{"${secret}"}`,
      `{"a": "${secret}\n"}`,
    ]) {
      const said = describeJsonSyntax(text);
      expect(said).toMatch(/^line \d+, column \d+: /);
      for (const piece of ['alice', 'ghp_', secret.slice(-8), 'github']) expect(said).not.toContain(piece);
    }
  });

  it('agrees with JSON.parse on what is JSON', () => {
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"a"',
      '"b\\n"',
      ':',
      ',',
      ' ',
      '\n',
      '1',
      '-0.5e3',
      'true',
      'null',
      '01',
      "'",
      'x',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length;
    for (let round = 0; round < 4000; round++) {
      const text = Array.from({ length: 1 + (round % 9) }, () => pieces[next()]).join('');
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(jsonSyntaxProblem(text) === undefined, text).toBe(parses);
    }
    for (const valid of ['{"a": [1, 2.5, -3e-2, true, false, null, {"b": "\\u00e9\\"\\\\"}]}', '"x"', ' 0 ', '[]'])
      expect(jsonSyntaxProblem(valid)).toBeUndefined();
  });
});
