/**
 * The shipped skill teaches only tools the server really has, in the forms
 * both hosts expose them (it is static text, read on either host): CodeBuddy's
 * deferred `mcp__openviking__*` through DeferExecuteTool, Claude Code's
 * `mcp__plugin_openviking_openviking__*` loaded with ToolSearch (DESIGN D23).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../support/ov-server/index.js';

const SKILL_PATH = resolve(import.meta.dirname, '../../skills/openviking-memory/SKILL.md');
const text = readFileSync(SKILL_PATH, 'utf8');

function frontmatter(source: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match?.[1]) throw new Error('SKILL.md has no frontmatter');
  const fields: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return fields;
}

describe('skills/openviking-memory/SKILL.md', () => {
  it('has the frontmatter CodeBuddy reads', () => {
    const fields = frontmatter(text);
    expect(fields.name).toBe('openviking-memory');
    expect(fields.description?.length).toBeGreaterThan(80);
    expect(fields.description).toContain('DeferExecuteTool');
    expect(fields.description).toContain('mcp__openviking__<tool> on CodeBuddy');
    expect(fields.description).toContain('mcp__plugin_openviking_openviking__<tool> on Claude Code');
  });

  it("gives Claude Code its own tool names and ToolSearch's select form, and says DeferExecuteTool is CodeBuddy's", () => {
    const claudeNamed = new Set(
      [...text.matchAll(/mcp__plugin_openviking_openviking__([a-z_]+)/g)].map((match) => match[1]),
    );
    for (const core of ['search', 'read']) expect(claudeNamed).toContain(core);
    for (const name of claudeNamed) expect(TOOL_NAMES).toContain(name);
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map(
      (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
    );
    const select = blocks.find((block) => typeof block.query === 'string' && block.query.startsWith('select:'));
    expect(String(select?.query).slice('select:'.length).split(',')).toEqual([
      'mcp__plugin_openviking_openviking__search',
      'mcp__plugin_openviking_openviking__read',
    ]);
    expect(text).toContain('Claude Code has no `DeferExecuteTool`');
  });

  it('names only tools the server registers, with the host prefix', () => {
    const named = new Set([...text.matchAll(/mcp__openviking__([a-z_]+)/g)].map((match) => match[1]));
    expect(named.size).toBeGreaterThan(0);
    for (const name of named) expect(TOOL_NAMES).toContain(name);
    for (const core of ['search', 'find', 'read', 'remember']) expect(named).toContain(core);
    expect(text).not.toMatch(/memory_recall|memory_store|\brecall\(|commit_session/);
  });

  it('shows the deferred call form with valid JSON examples', () => {
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map(
      (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
    );
    const calls = blocks.filter((block) => 'toolName' in block);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) {
      expect(String(call.toolName)).toMatch(/^mcp__openviking__/);
      expect(typeof call.params).toBe('object');
    }
    expect(blocks.some((block) => Array.isArray(block.tool_names))).toBe(true);
  });

  it('/openviking:remember names the remember tool as each host does', () => {
    const remember = readFileSync(resolve(import.meta.dirname, '../../commands/remember.md'), 'utf8');
    expect(remember).toContain('In CodeBuddy the tool is `mcp__openviking__remember`');
    expect(remember).toContain(
      'In Claude Code the tool is `mcp__plugin_openviking_openviking__remember` (there is no `DeferExecuteTool`)',
    );
    expect(remember).toContain('{"query": "select:mcp__plugin_openviking_openviking__remember"}');
  });

  it('never tells the model to open viking:// URIs with file tools, and avoids host placeholder syntax', () => {
    expect(text).toMatch(/Never pass them to Read, Glob, Grep/);
    expect(text).not.toMatch(/\bRead\s*\(\s*["']?viking:/);
    expect(text).not.toMatch(/"file_path"\s*:\s*"viking:/);
    // CodeBuddy substitutes ${VARS}, runs !`commands` and inlines @file references in skills.
    expect(text).not.toMatch(/\$\{|!`|(^|\s)@[\w./~-]/m);
  });
});
