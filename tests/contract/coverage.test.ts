/**
 * The contract covers what the plugin calls (issue 37 item 4): every method
 * of the OpenViking client (src/openviking/client.ts) is one route, and each
 * route is pinned by a contract case; every MCP tool the plugin's skill,
 * commands and code name (`mcp__openviking__<tool>`) is checked by the
 * tools/list case, and the ones its commands call by a case of their own.
 * A client method or a named tool added without a case fails here.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOpenVikingClient } from '../../src/openviking/client.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { CASES } from './cases/index.js';
import { NAMED_TOOLS } from './cases/mcp.js';

/** The route behind each client method. */
const CLIENT_ROUTES: Readonly<Record<string, string>> = {
  health: 'GET /health',
  systemStatus: 'GET /api/v1/system/status',
  ls: 'GET /api/v1/fs/ls',
  read: 'GET /api/v1/content/read',
  searchContext: 'POST /api/v1/search/search',
  recall: 'POST /api/v1/search/recall',
  find: 'POST /api/v1/search/find',
  getSession: 'GET /api/v1/sessions/{session_id}',
  addMessage: 'POST /api/v1/sessions/{session_id}/messages',
  addMessages: 'POST /api/v1/sessions/{session_id}/messages/batch',
  commit: 'POST /api/v1/sessions/{session_id}/commit',
  getTask: 'GET /api/v1/tasks/{task_id}',
  setCommitPolicy: 'PATCH /api/v1/sessions/{session_id}/config',
  sessionContext: 'GET /api/v1/sessions/{session_id}/context',
};

/** Tools the slash commands make the model call (commands/*.md), each with a case of its own. */
const CALLED_BY_COMMANDS = ['remember', 'read', 'search', 'forget'];

const covered = new Set(CASES.flatMap((entry) => entry.covers));

function textFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? textFiles(path) : /\.(md|ts)$/.test(entry.name) ? [path] : [];
  });
}

describe('what the contract covers', () => {
  it('every client method is a route a case pins', () => {
    const client = createOpenVikingClient({
      baseUrl: 'http://127.0.0.1:1',
      userAgent: 'coverage',
      http: () => Promise.reject(new Error('not called')),
      now: Date.now,
      timeoutMs: 1,
    });
    const methods = Object.keys(client).filter((key) => key !== 'baseUrl');
    expect(methods.sort()).toEqual(Object.keys(CLIENT_ROUTES).sort());
    expect(Object.values(CLIENT_ROUTES).filter((route) => !covered.has(route))).toEqual([]);
  });

  it('every MCP tool the plugin names is in the tools/list case; the commands’ tools have a case each', () => {
    const named = new Set(
      ['skills', 'commands', 'src']
        .flatMap(textFiles)
        .flatMap((file) =>
          [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/mcp__openviking__([a-z_]+)/g)].map(
            (match) => match[1] as string,
          ),
        ),
    );
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((tool) => NAMED_TOOLS[tool] === undefined)).toEqual([]);
    for (const command of readdirSync(join(REPO_ROOT, 'commands'))) {
      const text = readFileSync(join(REPO_ROOT, 'commands', command), 'utf8');
      for (const tool of Object.keys(NAMED_TOOLS))
        if (new RegExp(`call \`${tool}\``).test(text))
          expect(CALLED_BY_COMMANDS, `${command}: ${tool}`).toContain(tool);
    }
    expect(CALLED_BY_COMMANDS.filter((tool) => !covered.has(`mcp tool ${tool}`))).toEqual([]);
    expect(covered.has('mcp tools/list') && covered.has('mcp initialize')).toBe(true);
  });

  it('both modes have their cases', () => {
    for (const mode of ['dev', 'api_key'] as const)
      expect(CASES.filter((entry) => (entry.modes ?? [mode]).includes(mode)).length, mode).toBeGreaterThan(20);
  });
});
