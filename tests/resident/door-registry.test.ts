/**
 * The resident's side of its doors (src/resident/door.ts, DESIGN D45): which
 * door files it writes and removes, how many it keeps, and what a door
 * request file may hold. The way through a door, end to end, is
 * tests/resident/door.test.ts.
 *
 * @module
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeDoorRequest, doorPath, DoorRegistry, MAX_DOORS } from '../../src/resident/door.js';

const KEY = '0123456789abcdef';
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function registry(pid = 4242): DoorRegistry {
  dir = mkdtempSync(join(tmpdir(), 'ov-doors-'));
  return new DoorRegistry(dir, KEY, pid);
}

describe('DoorRegistry', () => {
  it('opens a door as a private file naming its key and pid, and knows its per-session variables', () => {
    const doors = registry();
    doors.open('123-456', { CODEBUDDY_PROJECT_DIR: '/w' });
    expect(readFileSync(doorPath(dir, '123-456'), 'utf8')).toBe(`${KEY} 4242\n`);
    expect(statSync(doorPath(dir, '123-456')).mode & 0o777).toBe(0o600);
    expect(doors.lookup('123-456')).toEqual({ CODEBUDDY_PROJECT_DIR: '/w' });
    expect(doors.lookup('999-1')).toBeUndefined();
  });

  it('opens nothing for a malformed print (it becomes a file name)', () => {
    const doors = registry();
    for (const print of ['../x', '12', '-', '1-2 3', `1-${'9'.repeat(13)}`]) doors.open(print, {});
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the file again when a node hook comes for a door whose file is gone', () => {
    const doors = registry();
    doors.open('1-2', {});
    rmSync(doorPath(dir, '1-2'));
    doors.open('1-2', {});
    expect(existsSync(doorPath(dir, '1-2'))).toBe(true);
  });

  it(`keeps at most ${MAX_DOORS} doors, closing the least recently used first`, () => {
    const doors = registry();
    for (let i = 0; i < MAX_DOORS; i++) doors.open(`${i}-1`, {});
    doors.lookup('0-1');
    doors.open('999-1', {});
    expect(doors.lookup('1-1')).toBeUndefined();
    expect(existsSync(doorPath(dir, '1-1'))).toBe(false);
    expect(doors.lookup('0-1')).toEqual({});
    expect(readdirSync(dir)).toHaveLength(MAX_DOORS);
  });

  it('closes every door at retirement, leaving a door file another resident has written since', () => {
    const doors = registry();
    doors.open('1-1', {});
    doors.open('2-2', {});
    writeFileSync(doorPath(dir, '2-2'), `${KEY} 777\n`);
    doors.closeAll();
    expect(readdirSync(dir)).toEqual(['door-2-2']);
    expect(doors.lookup('1-1')).toBeUndefined();
  });
});

describe('decodeDoorRequest', () => {
  const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'hi\nthere' });
  it('reads the working directory off the first line and the payload after it', () => {
    expect(decodeDoorRequest(`/work/dir\n${payload}\n`)).toMatchObject({
      cwd: '/work/dir',
      input: { hook_event_name: 'UserPromptSubmit', prompt: 'hi\nthere' },
    });
  });
  it('refuses a request with no working directory or a payload that is no hook input', () => {
    expect(decodeDoorRequest(payload)).toBeUndefined();
    expect(decodeDoorRequest(`\n${payload}`)).toBeUndefined();
    expect(decodeDoorRequest('/w\n{"nope":1}')).toBeUndefined();
    expect(decodeDoorRequest('/w\nnot json')).toBeUndefined();
  });
});
