/**
 * Which resident serves a hook (src/resident/identity.ts): the key follows
 * exactly the configuration, a request carries only per-session variables,
 * and every variable a stage reads is one the resident passes on.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configurationEnvironment,
  isConfigurationVariable,
  PER_REQUEST_VARIABLES,
  requestEnvironment,
  residentKey,
  residentPaths,
  residentProcessEnvironment,
  stageEnvironment,
  REQUEST_ID,
} from '../../src/resident/identity.js';

const BASE = {
  HOME: '/home/dev',
  PATH: '/usr/bin',
  CODEBUDDY_PLUGIN_ROOT: '/plugins/ov',
  CODEBUDDY_PROJECT_DIR: '/work/a',
  CLAUDE_PROJECT_DIR: '/work/a',
  CODEBUDDY_SERVICE_PROXY_URL: 'http://127.0.0.1:34763/internal/hooks/services/invoke',
  OPENVIKING_URL: 'http://127.0.0.1:1933',
};
const key = (env: Record<string, string | undefined>, root = '/plugins/ov') => residentKey(env, root);

describe('residentKey', () => {
  it('changes with anything that picks the configuration', () => {
    const changes: Array<Record<string, string>> = [
      { OPENVIKING_URL: 'http://other:1933' },
      { OPENVIKING_API_KEY: 'k' },
      { OPENVIKING_PROMPT_DEADLINE_MS: '900' },
      { OPENVIKING_CONFIG_FILE: '/etc/ov.conf' },
      { HOME: '/home/other' },
      { CODEBUDDY_PLUGIN_DATA: '/data' },
      { CLAUDE_PLUGIN_DATA: '/data' },
      { CODEBUDDY_CONFIG_DIR: '/cfg' },
      { CODEBUDDY_PLUGIN_OPTION_SERVER_URL: 'http://x' },
      { CLAUDE_PLUGIN_ROOT: '/plugins/other' },
    ];
    for (const change of changes) expect(key({ ...BASE, ...change }), JSON.stringify(change)).not.toBe(key(BASE));
    expect(key(BASE, '/plugins/second-install')).not.toBe(key(BASE));
  });

  it('changes with every variable that changes how the network is reached (TLS, CAs, node options, proxies in both cases)', () => {
    const network = [
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'NODE_EXTRA_CA_CERTS',
      'NODE_OPTIONS',
      'SSL_CERT_FILE',
      'SSL_CERT_DIR',
      'HTTP_PROXY',
      'http_proxy',
      'HTTPS_PROXY',
      'https_proxy',
      'NO_PROXY',
      'no_proxy',
      'ALL_PROXY',
      'all_proxy',
    ];
    for (const name of network) {
      expect(key({ ...BASE, [name]: '0' }), name).not.toBe(key(BASE));
      expect(residentProcessEnvironment({ ...BASE, [name]: 'x' })[name], name).toBe('x');
    }
  });

  it('a resident process starts with the key variables and PATH only', () => {
    expect(residentProcessEnvironment({ ...BASE, TERM: 'xterm', AWS_SECRET_ACCESS_KEY: 'aws' })).toEqual({
      ...configurationEnvironment(BASE),
      PATH: '/usr/bin',
    });
  });

  it('does not change with per-session or unrelated variables (one resident per configuration, not per session)', () => {
    const same = {
      ...BASE,
      CODEBUDDY_PROJECT_DIR: '/work/b',
      CLAUDE_PROJECT_DIR: '/work/b',
      PATH: '/bin',
      TERM: 'xterm',
      CODEBUDDY_SERVICE_PROXY_URL: 'http://127.0.0.1:1/x',
    };
    expect(key(same)).toBe(key(BASE));
    expect(key(Object.fromEntries(Object.entries(BASE).reverse()))).toBe(key(BASE));
  });

  it('is 16 hex digits, usable in a file name', () => {
    expect(key(BASE)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('what a request carries and what a resident stage sees', () => {
  it('a request carries only the per-session variables, never a credential', () => {
    const env = { ...BASE, OPENVIKING_API_KEY: 'secret-key', CODEBUDDY_PLUGIN_OPTION_API_KEY: 'secret-option' };
    expect(requestEnvironment(env)).toEqual({ CODEBUDDY_PROJECT_DIR: '/work/a', CLAUDE_PROJECT_DIR: '/work/a' });
    expect(JSON.stringify(requestEnvironment(env))).not.toContain('secret');
  });

  it("a stage sees the resident's configuration plus the request's per-session variables, and nothing else from the request", () => {
    const resident = { ...BASE, OPENVIKING_API_KEY: 'k', SHELL: '/bin/bash' };
    const seen = stageEnvironment(resident, {
      CODEBUDDY_PROJECT_DIR: '/work/b',
      OPENVIKING_URL: 'http://forged',
      HOME: '/forged',
      PATH: '/forged',
    });
    expect(seen).toEqual({ ...configurationEnvironment(resident), CODEBUDDY_PROJECT_DIR: '/work/b' });
    expect(seen.OPENVIKING_URL).toBe('http://127.0.0.1:1933');
    expect(seen.SHELL).toBeUndefined();
  });

  it('request ids are `<pid>-<token>` and nothing that could name another file', () => {
    expect(REQUEST_ID.test('1234-lmn0pq9z')).toBe(true);
    for (const bad of ['', '1234', '../x', '1234-a/b', '1234-A', '1-a b', `1-${'a'.repeat(41)}`])
      expect(REQUEST_ID.test(bad), bad).toBe(false);
  });

  it('keeps every file of a key under <dataDir>/resident, named by the key', () => {
    const paths = residentPaths('/data', 'abcdef0123456789');
    expect(
      [paths.fifo, paths.lock, paths.startMark, paths.request('1-a'), paths.reply('1-a')].every((p) =>
        p.startsWith('/data/resident/abcdef0123456789'),
      ),
    ).toBe(true);
    expect(paths.filePrefix).toBe('abcdef0123456789-');
  });
});

describe('every variable the stage code reads reaches a resident stage', () => {
  /**
   * Code a resident never runs: the process entry, the doctor, the MCP proxy,
   * the status line, the hooks module (the host's worker), and the hand-off
   * from it (its flags and `CLAUDE_PID` are read by the start stage and by
   * the shell commands before node starts, never by the prompt stage).
   */
  const NOT_RUN_BY_A_RESIDENT = [
    'hook/main.ts',
    'doctor/',
    'mcp/',
    'statusline/',
    'controls/',
    'mod/',
    'protocol/handoff.ts',
    'import/',
  ];

  /** Read by shared code (store/paths.ts `claudeConfigDir`) only for a person's commands (import, doctor), never by a stage. */
  const READ_FOR_COMMANDS_ONLY = ['CLAUDE_CONFIG_DIR'];

  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
    });
  }

  it('each env name in src/ outside the process entry is a configuration or per-request variable', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const names = new Set<string>();
    for (const file of sources(root)) {
      if (NOT_RUN_BY_A_RESIDENT.some((part) => file.slice(root.length).startsWith(part))) continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\benv(?:\.|\[['"`])([A-Z][A-Z0-9_]*)/g)) names.add(match[1] ?? '');
      for (const match of text.matchAll(/['"`]((?:OPENVIKING|CODEBUDDY|CLAUDE)_[A-Z0-9_]+)/g))
        names.add(match[1] ?? '');
    }
    expect(names.size).toBeGreaterThan(10);
    const unseen = [...names].filter(
      (name) =>
        !isConfigurationVariable(name) &&
        !(PER_REQUEST_VARIABLES as readonly string[]).includes(name) &&
        !READ_FOR_COMMANDS_ONLY.includes(name),
    );
    expect(unseen).toEqual([]);
  });
});
