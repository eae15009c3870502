import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, debugLogPath, isDebugOn, redactFields } from '../../src/hook/log.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-log-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('hook logger', () => {
  it('OPENVIKING_DEBUG switches it on', () => {
    for (const v of ['1', 'true', 'YES', ' on ']) expect(isDebugOn({ OPENVIKING_DEBUG: v })).toBe(true);
    for (const v of [undefined, '', '0', 'false', 'off', 'debug']) expect(isDebugOn({ OPENVIKING_DEBUG: v })).toBe(false);
  });

  it('writes JSON lines (file 0600, dir 0700) only when debug is on, with secrets masked', () => {
    const path = join(sandbox, 'logs', 'nested', 'hooks.log');
    const stderr: string[] = [];
    const host = { homeDir: sandbox, now: () => 0, pid: 7, writeStderr: (l: string) => stderr.push(l) };
    createLogger({ ...host, env: { OPENVIKING_DEBUG_LOG: path } }).debug('off', { a: 1 });
    expect(() => statSync(path)).toThrow();
    const log = createLogger({ ...host, env: { OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: path } });
    log.debug('hello', { apiKey: 'sk-secret', Authorization: 'Bearer x', session: 's1' });
    log.warn('careful', { token: 't' });
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      { ts: '1970-01-01T00:00:00.000Z', pid: 7, level: 'debug', message: 'hello', apiKey: '[redacted]', Authorization: '[redacted]', session: 's1' },
      { ts: '1970-01-01T00:00:00.000Z', pid: 7, level: 'warn', message: 'careful', token: '[redacted]' },
    ]);
    expect(readFileSync(path, 'utf8')).not.toContain('sk-secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox, 'logs', 'nested')).mode & 0o777).toBe(0o700);
    expect(stderr).toEqual(['openviking: careful\n']);
  });

  it('defaults to ~/.openviking/logs/codebuddy-hooks.log and never throws on an unwritable path', () => {
    expect(debugLogPath({}, '/h')).toBe('/h/.openviking/logs/codebuddy-hooks.log');
    // A regular file where a directory should be (ENOTDIR). Not /proc: node 20's recursive mkdirSync spins forever there.
    const blocker = join(sandbox, 'a-file');
    writeFileSync(blocker, '');
    const log = createLogger({ env: { OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: join(blocker, 'logs', 'x.log') }, homeDir: sandbox, now: () => 0, pid: 1, writeStderr: () => undefined });
    expect(() => log.debug('x')).not.toThrow();
  });

  it('clips long values', () => {
    expect(String(redactFields({ body: 'x'.repeat(5000) }).body).length).toBe(2001);
  });
});
