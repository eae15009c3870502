/**
 * What no single resident cleans up (src/resident/housekeeping.ts, DESIGN
 * D20): leftover exchange files of any key, by age, and nothing else.
 *
 * @module
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEFTOVER_MS, sweepLeftovers } from '../../src/resident/housekeeping.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sweepLeftovers', () => {
  it('removes request and reply files (and their temp files) of every key once older than a minute; keeps fresh ones and every other file', () => {
    dir = mkdtempSync(join(tmpdir(), 'ov-sweep-'));
    const old = [
      '0123456789abcdef-42-abc.reply',
      'fedcba9876543210-7-zz9.request',
      'fedcba9876543210-7-zz9.reply.7.k3j2.tmp',
    ];
    const kept = [
      '0123456789abcdef-43-abd.reply',
      '0123456789abcdef.fifo',
      '0123456789abcdef.started',
      '0123456789abcdef.lock',
      'notes-42-abc.reply',
      'other.txt',
    ];
    for (const name of [...old, ...kept]) writeFileSync(join(dir, name), 'x');
    const now = Date.now();
    const twoMinutesAgo = (now - 2 * LEFTOVER_MS) / 1000;
    for (const name of [...old, ...kept.slice(1)]) utimesSync(join(dir, name), twoMinutesAgo, twoMinutesAgo);
    expect(sweepLeftovers(dir, now)).toBe(old.length);
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
  });

  it('never throws: a missing directory sweeps nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'ov-sweep-'));
    expect(sweepLeftovers(join(dir, 'absent'), Date.now())).toBe(0);
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });
});

describe('sweepLeftovers and door files (D45)', () => {
  it("removes a door whose resident is dead or which is unreadable, keeps a living resident's, whatever their age", () => {
    dir = mkdtempSync(join(tmpdir(), 'ov-sweep-'));
    writeFileSync(join(dir, 'door-11-22'), '0123456789abcdef 100\n');
    writeFileSync(join(dir, 'door-33-44'), '0123456789abcdef 200\n');
    writeFileSync(join(dir, 'door-55-66'), 'garbage');
    writeFileSync(join(dir, 'door-not-a-print'), '0123456789abcdef 200\n');
    const alive = (pid: number): boolean => pid === 200;
    expect(sweepLeftovers(dir, Date.now(), LEFTOVER_MS, alive)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['door-33-44', 'door-not-a-print']);
  });
});
