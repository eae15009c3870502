/**
 * The assertion every scenario starts with: the CLI ran to its end by itself
 * (not killed at the harness timeout) and exited 0; stderr is the message.
 *
 * @module
 */
import { expect } from 'vitest';
import type { CliRun } from './cli.js';

export function expectNormalExit(run: CliRun): void {
  expect(run.timedOut, `killed at the harness timeout\n${run.stderr}`).toBe(false);
  expect(run.exit.code, run.stderr).toBe(0);
}
