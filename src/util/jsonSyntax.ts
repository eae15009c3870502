/**
 * Where a text stops being JSON, said by line and column and in words of our
 * own, never by quoting the text.
 *
 * `JSON.parse`'s message quotes the input on node 20 (`Unexpected token 'h',
 * "https://al"... is not valid JSON`) and gives a character offset at best.
 * The files the plugin reads are hand-edited (ovcli.conf), a host's
 * (settings.json, credentials.json) or a clone's (`.openviking/config.json`,
 * which can be a symlink to a credentials file): a message that quotes them
 * can carry a secret into doctor's report, which `/openviking:doctor` hands
 * to the model. So a parse failure is located by this small scanner, which
 * follows RFC 8259 exactly as `JSON.parse` does, and described by what was
 * expected there.
 *
 * @module
 */

export interface JsonSyntaxProblem {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units from the line's start. */
  column: number;
  /** What is wrong there, in words that quote nothing of the input. */
  problem: string;
}

class Stop {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const LITERALS = ['true', 'false', 'null'];

/** Where `text` first breaks JSON's grammar; undefined when it is JSON. */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...lineAndColumn(text, error.at), problem: error.problem };
  }
}

/** `line 3, column 1: a comma before '}' (a trailing comma)`, or `not JSON` when the scanner finds nothing (never expected). */
export function describeJsonSyntax(text: string): string {
  const found = jsonSyntaxProblem(text);
  return found === undefined ? 'not JSON' : `line ${found.line}, column ${found.column}: ${found.problem}`;
}

function lineAndColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): void {
    if (this.text.charCodeAt(0) === 0xfeff)
      throw new Stop(0, 'a byte-order mark before the JSON (save the file as UTF-8 without BOM)');
    this.space();
    if (this.at >= this.text.length) throw new Stop(this.at, 'no JSON value at all');
    this.value();
    this.space();
    if (this.at < this.text.length) throw new Stop(this.at, 'more text after the end of the JSON value');
  }

  private value(): void {
    const char = this.text[this.at];
    if (char === undefined) throw new Stop(this.at, 'the text ends where a value should be');
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === '-' || isDigit(char)) return this.number();
    for (const literal of LITERALS) if (this.text.startsWith(literal, this.at)) return void (this.at += literal.length);
    if (char === "'") throw new Stop(this.at, 'a single quote: JSON strings take double quotes');
    throw new Stop(
      this.at,
      'not a JSON value here (a value is a string in double quotes, a number, true, false, null, an object or an array)',
    );
  }

  private object(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') return void this.at++;
    for (;;) {
      this.propertyName();
      this.space();
      if (this.text[this.at] !== ':') throw this.expected("':' after the property name");
      this.at++;
      this.space();
      this.value();
      this.space();
      const next = this.text[this.at];
      if (next === '}') return void this.at++;
      if (next !== ',') throw this.expected("',' or '}' after a property's value");
      const comma = this.at;
      this.at++;
      this.space();
      if (this.text[this.at] === '}') throw new Stop(comma, "a comma before '}' (a trailing comma)");
    }
  }

  private propertyName(): void {
    const char = this.text[this.at];
    if (char === '"') return this.string();
    if (char === undefined) throw new Stop(this.at, 'the text ends inside an object');
    throw new Stop(this.at, 'expected a property name in double quotes');
  }

  private array(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') return void this.at++;
    for (;;) {
      this.value();
      this.space();
      const next = this.text[this.at];
      if (next === ']') return void this.at++;
      if (next !== ',') throw this.expected("',' or ']' after an array item");
      const comma = this.at;
      this.at++;
      this.space();
      if (this.text[this.at] === ']') throw new Stop(comma, "a comma before ']' (a trailing comma)");
    }
  }

  private string(): void {
    const start = this.at;
    this.at++;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) throw new Stop(start, 'a string that is never closed');
      if (char === '"') return void this.at++;
      if (char.charCodeAt(0) < 0x20)
        throw new Stop(this.at, 'a line break or control character inside a string (write it as \\n, \\t, …)');
      if (char === '\\') {
        const escape = this.text[this.at + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6)))
            throw new Stop(this.at, 'a \\u escape without four hex digits');
          this.at += 6;
          continue;
        }
        if (escape === undefined || !ESCAPES.has(escape))
          throw new Stop(this.at, 'a backslash that starts no valid escape (write a backslash as \\\\)');
        this.at += 2;
        continue;
      }
      this.at++;
    }
  }

  private number(): void {
    const start = this.at;
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(start, start + 400));
    if (match === null) throw new Stop(start, 'an invalid number');
    this.at += match[0].length;
    if (isDigit(this.text[this.at] ?? '') || this.text[this.at] === '.')
      throw new Stop(start, 'an invalid number (a leading zero, or a dot without digits after it)');
  }

  private space(): void {
    while (WHITESPACE.has(this.text[this.at] ?? '')) this.at++;
  }

  private expected(what: string): Stop {
    return this.at >= this.text.length
      ? new Stop(this.at, `the text ends early (expected ${what})`)
      : new Stop(this.at, `expected ${what}`);
  }
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9';
}
