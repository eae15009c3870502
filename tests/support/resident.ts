/**
 * Test helpers for the resident helper (DESIGN D16): wait until one
 * listens, and tell which process answered a prompt.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentPaths } from '../../src/resident/identity.js';
import { residentListening } from '../../src/resident/housekeeping.js';

/** FIFOs under `<dataDir>/resident` that a process has open for reading now. */
export function listeningFifos(dataDir: string): string[] {
  const dir = join(dataDir, 'resident');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.fifo'));
  } catch {
    return [];
  }
  return names.filter((name) => residentListening(residentPaths(dataDir, name.slice(0, -'.fifo'.length))));
}

/** Resolves once `count` residents listen under `dataDir`; rejects after `timeoutMs`. */
export async function residentsListening(dataDir: string, count = 1, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (listeningFifos(dataDir).length < count) {
    if (Date.now() > deadline) throw new Error(`no resident listening under ${dataDir} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The debug-log lines (JSON) of `path`, or [] when there is no log yet. */
export function debugLines(path: string): Array<{ pid: number; message: string } & Record<string, unknown>> {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { pid: number; message: string });
  } catch {
    return [];
  }
}
