import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, envLogSettings, redactFields } from '../../src/hook/log.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-log-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('hook logger', () => {
  it('the environment alone reads OPENVIKING_DEBUG as the knob does (a word no switch understands keeps the default, off) and expands ~ in OPENVIKING_DEBUG_LOG', () => {
    for (const v of ['1', 'true', 'YES', ' on ', 'enabled'])
      expect(envLogSettings({ OPENVIKING_DEBUG: v }, '/h').debug).toBe(true);
    for (const v of [undefined, '', '0', 'false', 'off', 'No', 'debug'])
      expect(envLogSettings({ OPENVIKING_DEBUG: v }, '/h').debug).toBe(false);
    // README: OPENVIKING_DEBUG_LOG "Where the debug log goes; `~` is your home directory" (on 8e37669 a hook wrote <cwd>/~/dbg.log).
    expect(envLogSettings({ OPENVIKING_DEBUG_LOG: '~/dbg.log' }, '/h').debugLogPath).toBe('/h/dbg.log');
    expect(envLogSettings({}, '/h').debugLogPath).toBe('/h/.openviking/logs/codebuddy-hooks.log');
  });

  it('holds lines until it learns its settings from the configuration; flush writes them by the environment when none came', () => {
    const path = join(sandbox, 'held.log');
    const host = { homeDir: sandbox, now: () => 0, pid: 7, writeStderr: () => undefined };
    const configured = createLogger({ ...host, env: {} });
    configured.debug('before the config');
    configured.configure({ debug: true, debugLogPath: path });
    configured.debug('after the config');
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { message: string }).message),
    ).toEqual(['before the config', 'after the config']);
    const unconfigured = createLogger({
      ...host,
      env: { OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: join(sandbox, 'env.log') },
    });
    unconfigured.debug('never configured');
    unconfigured.flush();
    expect(readFileSync(join(sandbox, 'env.log'), 'utf8')).toContain('never configured');
  });

  it('writes JSON lines (file 0600, dir 0700) only when debug is on, with secrets masked', () => {
    const path = join(sandbox, 'logs', 'nested', 'hooks.log');
    const stderr: string[] = [];
    const host = { homeDir: sandbox, now: () => 0, pid: 7, writeStderr: (l: string) => stderr.push(l) };
    const quiet = createLogger({ ...host, env: {} });
    quiet.configure({ debug: false, debugLogPath: path });
    quiet.debug('off', { a: 1 });
    expect(() => statSync(path)).toThrow();
    const log = createLogger({ ...host, env: {} });
    log.configure({ debug: true, debugLogPath: path });
    log.debug('hello', { apiKey: 'sk-secret', Authorization: 'Bearer x', session: 's1' });
    log.warn('careful', { token: 't' });
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        ts: '1970-01-01T00:00:00.000Z',
        pid: 7,
        level: 'debug',
        message: 'hello',
        apiKey: '[redacted]',
        Authorization: '[redacted]',
        session: 's1',
      },
      { ts: '1970-01-01T00:00:00.000Z', pid: 7, level: 'warn', message: 'careful', token: '[redacted]' },
    ]);
    expect(readFileSync(path, 'utf8')).not.toContain('sk-secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(sandbox, 'logs', 'nested')).mode & 0o777).toBe(0o700);
    expect(stderr).toEqual(['openviking: careful\n']);
  });

  it('never throws on an unwritable path', () => {
    // A regular file where a directory should be (ENOTDIR). Not /proc: node 20's recursive mkdirSync spins forever there.
    const blocker = join(sandbox, 'a-file');
    writeFileSync(blocker, '');
    const log = createLogger({ env: {}, homeDir: sandbox, now: () => 0, pid: 1, writeStderr: () => undefined });
    log.configure({ debug: true, debugLogPath: join(blocker, 'logs', 'x.log') });
    expect(() => log.debug('x')).not.toThrow();
  });

  it('clips long values', () => {
    expect(String(redactFields({ body: 'x'.repeat(5000) }).body).length).toBe(2001);
  });
});
