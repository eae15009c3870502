/**
 * Redaction's cost (DESIGN D17): `redactSecrets` on what capture and the
 * prompt hook filter, in one process, each build's filter called in turn
 * so the machine's load falls on both alike.
 *
 *   npx tsx bench/redaction.ts [--rounds N] [--first] [<secrets.ts> …]
 *
 * Each path is a `transcript/secrets.ts` (default: this tree's); to compare
 * with another commit, `git archive <commit> src | tar -x -C /tmp/before`
 * and pass `/tmp/before/src/transcript/secrets.ts` beside it. The texts are
 * ordinary session text, no secret in it (what the filter meets nearly every
 * time): a short prompt, 4,000 characters of a tool's output, a 50 KB
 * transcript chunk, and a session filtered part by part as capture does
 * (this repository's README, decisions and sources, as the files an agent
 * reads), read from this tree so every build filters the same bytes. Prints
 * the median µs of each. `--first`: one build's first prompt and first
 * session in a fresh process (the rules and the gate compiled on the way).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');

/** The files an agent reads in a session here, in a fixed order: this tree's README, decisions and sources. */
function sessionFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs/decisions'))
      .sort()
      .map((name) => `docs/decisions/${name}`),
    ...['recall', 'capture', 'hook', 'openviking'].flatMap((dir) =>
      readdirSync(join(ROOT, 'src', dir))
        .filter((name) => name.endsWith('.ts'))
        .sort()
        .map((name) => `src/${dir}/${name}`),
    ),
  ];
}

/** Those files as one text, cut to `size` characters. */
function sessionText(size: number): string {
  let text = '';
  for (const file of sessionFiles()) {
    if (text.length >= size) break;
    text += `\n$ cat ${file}\n${readFileSync(join(ROOT, file), 'utf8')}`;
  }
  return text.slice(0, size);
}

const PROMPT = 'the capture test fails after the rebase, can you run npm test and fix what broke in src/recall?';

/**
 * A session as capture filters it, part by part: per file read, the prompt,
 * the tool's input, its output (the file, at most 8,000 characters) and a
 * line of the assistant's; 60 files (~250 KB).
 */
function sessionParts(): string[] {
  return sessionFiles()
    .slice(0, 60)
    .flatMap((file) => [
      PROMPT,
      JSON.stringify({ command: `cat ${file}`, description: `Read ${file}` }),
      readFileSync(join(ROOT, file), 'utf8').slice(0, 8_000),
      `I read ${file}; the failing assertion is in the part that builds the request, so I will change it next.`,
    ]);
}

/** Each row: the parts filtered one by one, as capture and the prompt hook call the filter. */
const TEXTS: Record<string, string[]> = {
  prompt: [PROMPT],
  '4,000 characters': [sessionText(4_000)],
  '50 KB chunk': [sessionText(50_000)],
  'session (240 parts)': sessionParts(),
};

type Redact = (text: string) => string;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** µs per filtering of all `parts` by `redact`, over enough repeats to take ~2 ms. */
function timeOnce(redact: Redact, parts: string[]): number {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const calls = Math.max(1, Math.round(20_000 / size));
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) for (const part of parts) redact(part);
  return Number(process.hrtime.bigint() - start) / 1_000 / calls;
}

/** `--first`: a fresh process's first prompt, then its first session (run it once per process). */
function timeFirst(redact: Redact): string {
  const figures = ['prompt', 'session (240 parts)'].map((name) => {
    const start = process.hrtime.bigint();
    for (const part of TEXTS[name] ?? []) redact(part);
    return `${name} ${(Number(process.hrtime.bigint() - start) / 1_000).toFixed(0)} µs`;
  });
  return `first in this process: ${figures.join(', ')}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { rounds: { type: 'string', default: '40' }, first: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const paths = positionals.length > 0 ? positionals : [join(ROOT, 'src/transcript/secrets.ts')];
  const builds: { path: string; redact: Redact }[] = [];
  for (const path of paths) {
    const module = (await import(resolve(path))) as { redactSecrets: Redact };
    builds.push({ path, redact: module.redactSecrets });
  }
  if (values.first) {
    for (const build of builds) console.log(`${timeFirst(build.redact)} (${build.path})`);
    return;
  }
  const rounds = Number(values.rounds);
  for (const [name, text] of Object.entries(TEXTS)) {
    for (const build of builds) for (const part of text) build.redact(part); // the rules this text gates in, compiled
    const samples = builds.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
      for (const index of order) samples[index]?.push(timeOnce((builds[index] as { redact: Redact }).redact, text));
    }
    const figures = builds.map((build, index) => `${median(samples[index] ?? []).toFixed(1)} µs (${build.path})`);
    const size = text.reduce((sum, part) => sum + part.length, 0);
    console.log(`${name} (${size} chars): ${figures.join('  |  ')}`);
  }
}

await main();
