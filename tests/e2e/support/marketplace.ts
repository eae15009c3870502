/**
 * Local directory marketplaces for install tests. CodeBuddy resolves a plugin
 * `source` only inside the marketplace root ("Path escapes marketplace root",
 * seed 000 §9), so the plugin's shipped files are copied into
 * `<mkt>/plugins/<name>` — the same files a user gets from a git clone.
 *
 * @module
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Top-level entries of the plugin root that ship to users (build output included, sources not). */
export const SHIPPED_PLUGIN_ENTRIES = [
  '.codebuddy-plugin',
  '.claude-plugin',
  'commands',
  'hooks',
  'scripts',
  'servers',
  'skills',
  'package.json',
  'README.md',
  'LICENSE',
  'THIRD_PARTY_NOTICES.md',
] as const;

/** Copies the shipped entries of `pluginRoot` that exist into `target`; returns the names copied. */
export function copyShippedPlugin(pluginRoot: string, target: string): string[] {
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const entry of SHIPPED_PLUGIN_ENTRIES) {
    const from = join(pluginRoot, entry);
    if (!existsSync(from)) continue;
    cpSync(from, join(target, entry), { recursive: true });
    copied.push(entry);
  }
  return copied;
}

export interface MarketplaceEntry {
  name: string;
  /** Relative to the marketplace root, e.g. `./plugins/openviking` or `./`. */
  source: string;
  description: string;
}

/** Writes `<mktDir>/.codebuddy-plugin/marketplace.json`. */
export function writeMarketplaceManifest(mktDir: string, name: string, plugins: MarketplaceEntry[]): string {
  const path = join(mktDir, '.codebuddy-plugin', 'marketplace.json');
  mkdirSync(join(mktDir, '.codebuddy-plugin'), { recursive: true });
  const manifest = { name, owner: { name: 'openviking-codebuddy e2e' }, plugins };
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}
