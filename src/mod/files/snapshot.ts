/**
 * What the hooks module knows of the files the shared rules read and write:
 * a snapshot, kept for the session, that answers the synchronous file calls
 * of config/, project/, store/ and why/ in the module (D30). The module has
 * only `$.fs`, which is asynchronous; the rules are synchronous, and there is
 * one implementation of each. So the module runs a rule against the
 * snapshot (`attempt`), and every path the rule asked for that the snapshot
 * does not hold yet is a miss: the run answered "missing" for it, so its
 * result does not count. fetch.ts looks the misses up with `$.fs`, all in
 * parallel, and the rule runs again, until a run misses nothing (a few
 * rounds: a folder's `.git` is read only once it is known to be a file).
 *
 * Writes go into the snapshot (a later read in the same session sees them)
 * and into a queue of whole files that fetch.ts writes after the answer. A
 * run that missed takes its writes back: they were decided on a missing
 * file.
 *
 * Outside a run (the few reads of a start's network phase: the user-space
 * cache, which the module reads ahead in its run; a recall reads none) a
 * miss reads as missing and is kept for the next run to fetch.
 *
 * @module
 */
import { utf8Length } from '../../util/utf8.js';

/** What a path leads to, as `$.fs.stat(path, { resolve: true })` says. */
export interface PathFacts {
  kind: 'file' | 'dir' | 'other';
  size: number;
  mtimeMs: number;
  /** Absent when the path leads nowhere (a dangling link) or the host withheld it. */
  realPath?: string;
}

/** A looked-at path: found, not there, or refused (permissions, a loop: the host's message). */
export type Seen = { state: 'found'; facts: PathFacts } | { state: 'missing' } | { state: 'refused'; why: string };

/** What a run asked for that the snapshot did not hold: a stat, a read of up to `maxBytes`, a listing. */
export type Need =
  { op: 'stat'; path: string } | { op: 'read'; path: string; maxBytes: number } | { op: 'list'; path: string };

/** Which work a run serves: the decision before an answer, or the records after it. */
export type Purpose = 'decide' | 'record';

interface Entry {
  seen?: Seen;
  /** The text read, the most bytes that read asked for, and whether it was the whole file. */
  text?: { value: string; maxBytes: number; whole: boolean };
  /** A folder's names (`$.fs.list`); [] when it could not be listed. */
  names?: string[];
  /** Written by this module since it was last looked at: its facts are ours, not the disk's. */
  written?: boolean;
}

interface Undo {
  path: string;
  entry: Entry | undefined;
  queued: string | undefined;
}

export class FileSnapshot {
  private readonly entries = new Map<string, Entry>();
  /** Whole files to write after the answer, by path, in the order first queued. */
  private readonly queue = new Map<string, string>();
  /** What the running run missed. */
  private readonly missed = new Map<string, Need>();
  /** What was missed outside a run, fetched with the next run's needs. */
  private readonly late = new Map<string, Need>();
  private readonly touched = new Map<Purpose, Set<string>>();
  private run: { purpose: Purpose; touched: Set<string>; undo: Undo[] } | undefined;

  /**
   * Runs `rule` against the snapshot. `complete` is false when it asked for
   * something not held yet: its writes are taken back and `needs` says what
   * to fetch before running it again.
   */
  attempt<T>(purpose: Purpose, rule: () => T): { value: T; complete: true } | { complete: false; needs: Need[] } {
    if (this.run !== undefined) throw new Error('file snapshot: a run inside a run');
    this.missed.clear();
    const run = { purpose, touched: new Set<string>(), undo: [] as Undo[] };
    this.run = run;
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: rule() };
    } catch (error) {
      // A rule that threw on a file it had not got yet is run again once it has it.
      outcome = { error };
    } finally {
      this.run = undefined;
    }
    if (this.missed.size === 0) {
      if ('error' in outcome) throw outcome.error;
      this.touched.set(purpose, new Set([...(this.touched.get(purpose) ?? []), ...run.touched]));
      return { value: outcome.value, complete: true };
    }
    this.takeBack(run.undo);
    const needs = [...this.missed.values(), ...this.late.values()];
    this.missed.clear();
    this.late.clear();
    return { complete: false, needs };
  }

  /** What was missed outside a run since the last fetch (and forgotten here). */
  takeLate(): Need[] {
    const needs = [...this.late.values()];
    this.late.clear();
    return needs;
  }

  /** Paths a complete run of `purpose` looked at, for the look again before the next one (fetch.ts `revalidate`). */
  pathsOf(purpose: Purpose): string[] {
    return [...(this.touched.get(purpose) ?? [])].filter((path) => this.entries.get(path)?.seen !== undefined);
  }

  stat(path: string): Seen | undefined {
    const seen = this.touch(path)?.seen;
    if (seen === undefined) this.miss({ op: 'stat', path });
    return seen;
  }

  /** The text of a regular file of at most `maxBytes` (the caller checked the stat); undefined when not read yet. */
  text(path: string, maxBytes: number): string | undefined {
    const held = this.touch(path)?.text;
    if (held !== undefined && (held.whole || held.maxBytes >= maxBytes)) return held.value;
    this.miss({ op: 'read', path, maxBytes });
    return undefined;
  }

  names(dir: string): string[] | undefined {
    const names = this.touch(dir)?.names;
    if (names === undefined) this.miss({ op: 'list', path: dir });
    return names;
  }

  /** Replaces `path` with `text` here and queues the write. */
  write(path: string, text: string): void {
    const entry = this.entries.get(path);
    this.run?.undo.push({ path, entry: entry === undefined ? undefined : { ...entry }, queued: this.queue.get(path) });
    this.queue.delete(path);
    this.queue.set(path, text);
    this.entries.set(path, {
      seen: { state: 'found', facts: { kind: 'file', size: utf8Length(text), mtimeMs: Date.now(), realPath: path } },
      text: { value: text, maxBytes: Infinity, whole: true },
      written: true,
    });
  }

  /** The queued writes, oldest first, and the queue emptied. */
  takeWrites(): Array<[string, string]> {
    const writes = [...this.queue.entries()];
    this.queue.clear();
    return writes;
  }

  /**
   * Stores what fetch.ts found. A stat that changed drops the text and names
   * read before; the read of the text it dropped is returned, for the caller
   * to make at once (the rule that read it will want it again).
   */
  learnStat(path: string, seen: Seen): Need | undefined {
    const entry = this.entries.get(path);
    const same = entry?.seen !== undefined && entry.written !== true && sameSeen(entry.seen, seen);
    this.entries.set(path, same && entry !== undefined ? entry : { seen });
    return !same && entry?.text !== undefined ? { op: 'read', path, maxBytes: entry.text.maxBytes } : undefined;
  }

  /** `value` is what a read of up to `maxBytes + 1` bytes gave: the whole file when it took no more than `maxBytes`. */
  learnText(path: string, value: string, maxBytes: number): void {
    const entry = this.entries.get(path) ?? {};
    this.entries.set(path, { ...entry, text: { value, maxBytes, whole: utf8Length(value) <= maxBytes } });
  }

  learnNames(dir: string, names: string[]): void {
    const entry = this.entries.get(dir) ?? {};
    this.entries.set(dir, { ...entry, names });
  }

  private touch(path: string): Entry | undefined {
    this.run?.touched.add(path);
    return this.entries.get(path);
  }

  /** Records a need; a read stands for the stat too (fetch.ts stats before it reads). */
  private miss(need: Need): void {
    const into = this.run === undefined ? this.late : this.missed;
    if (need.op === 'stat' && into.has(`read ${need.path}`)) return;
    if (need.op === 'read') into.delete(`stat ${need.path}`);
    const key = `${need.op} ${need.path}`;
    const held = into.get(key);
    if (held === undefined || (need.op === 'read' && held.op === 'read' && need.maxBytes > held.maxBytes))
      into.set(key, need);
  }

  private takeBack(undo: readonly Undo[]): void {
    for (const { path, entry, queued } of [...undo].reverse()) {
      if (entry === undefined) this.entries.delete(path);
      else this.entries.set(path, entry);
      this.queue.delete(path);
      if (queued !== undefined) this.queue.set(path, queued);
    }
  }
}

function sameSeen(a: Seen, b: Seen): boolean {
  if (a.state !== b.state) return false;
  if (a.state !== 'found' || b.state !== 'found')
    return a.state !== 'refused' || (b.state === 'refused' && a.why === b.why);
  const [x, y] = [a.facts, b.facts];
  return x.kind === y.kind && x.size === y.size && x.mtimeMs === y.mtimeMs && x.realPath === y.realPath;
}

let session: FileSnapshot | undefined;

/** The session's snapshot (the module's state lives as long as the session). */
export function sessionFiles(): FileSnapshot {
  session ??= new FileSnapshot();
  return session;
}
