/**
 * Where each host finds what (D31). CodeBuddy reads `hooks/hooks.json` and,
 * when both manifests exist, `.codebuddy-plugin/plugin.json` (seed 003:
 * "两者同时存在时以 .codebuddy-plugin 为准"); when that manifest names no
 * hooks file, CodeBuddy 2.117 also takes the first `.json` file it lists in
 * `hooks/` for one (F21). Claude Code reads `hooks/hooks.json` and the hooks
 * files `.claude-plugin/plugin.json` names.
 * - Seed 000 §2 (probed on CodeBuddy 2.163.0): "Do not put a `modules` key in
 *   `hooks/hooks.json`"; seed 003's compatibility table sends a folder whose
 *   hooks.json has `modules` down the Mods channel. So nothing CodeBuddy
 *   reads names a module: not hooks.json, no other file of `hooks/`, not
 *   its manifest.
 * - The module is named by a hooks file only the Claude Code manifest
 *   declares, outside `hooks/`, holding nothing but that one module (Claude
 *   Code refuses a second module per plugin, FC20), built; the manifest's
 *   types contract sits beside it (FC24).
 * - The CodeBuddy manifest offers only options something reads on CodeBuddy
 *   (the credentials: config/pluginOptions.ts), no switch for a module it
 *   never loads.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USER_CONFIG_KEYS } from '../../src/config/pluginOptions.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as Record<string, unknown>;

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe('what CodeBuddy reads names no module (seed 000 §2)', () => {
  it('hooks/hooks.json has no `modules` key, at any depth', () => {
    expect(keysOf(readJson('hooks/hooks.json'))).not.toContain('modules');
  });

  it('hooks/ holds no other .json file, which CodeBuddy 2.117 would read as its hooks file (F21)', () => {
    expect(readdirSync(join(REPO_ROOT, 'hooks')).filter((name) => name.endsWith('.json'))).toEqual(['hooks.json']);
  });

  it('.codebuddy-plugin/plugin.json names no hooks file and no types contract', () => {
    const manifest = readJson('.codebuddy-plugin/plugin.json');
    expect(manifest).not.toHaveProperty('hooks');
    expect(manifest).not.toHaveProperty('types');
    expect(JSON.stringify(manifest)).not.toContain('register.mjs');
  });

  it('.codebuddy-plugin/plugin.json offers exactly the options the plugin reads there (no `module` switch)', () => {
    const userConfig = readJson('.codebuddy-plugin/plugin.json').userConfig as Record<string, unknown>;
    expect(Object.keys(userConfig).sort()).toEqual([...USER_CONFIG_KEYS].sort());
  });
});

describe('the module is named where only Claude Code looks', () => {
  const manifest = readJson('.claude-plugin/plugin.json');

  it('.claude-plugin/plugin.json names one hooks file beside it, holding only the one module, built', () => {
    expect(manifest.hooks).toBe('./.claude-plugin/module-hooks.json');
    const moduleHooks = readJson('.claude-plugin/module-hooks.json');
    expect(Object.keys(moduleHooks).sort()).toEqual(['description', 'modules']);
    // A path relative to the hooks file (FC20).
    expect(moduleHooks.modules).toEqual(['../hooks/register.mjs']);
    expect(existsSync(join(REPO_ROOT, 'hooks', 'register.mjs')), 'hooks/register.mjs (run npm run build)').toBe(true);
  });

  it('its types contract is the file beside it, and its icon where the validator looks', () => {
    expect(manifest.types).toBe('./.claude-plugin/module-types.d.ts');
    expect(existsSync(join(REPO_ROOT, '.claude-plugin', 'module-types.d.ts'))).toBe(true);
    const icon = readFileSync(join(REPO_ROOT, '.claude-plugin', 'icon.png'));
    // A square PNG of 512 to 2048 px a side, under 2 MB (the validator's rule, FC24).
    expect(icon.subarray(1, 4).toString('latin1')).toBe('PNG');
    const [width, height] = [icon.readUInt32BE(16), icon.readUInt32BE(20)];
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(512);
    expect(width).toBeLessThanOrEqual(2048);
    expect(icon.length).toBeLessThan(2 * 1024 * 1024);
  });
});
