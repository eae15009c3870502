/**
 * Where the real OpenViking server is installed for the suite: a project
 * venv under `.openviking-server/venv` (git-ignored), made by
 * `scripts/dev/openviking.sh install` from the exact pins of
 * `scripts/dev/openviking-requirements.txt`. `OPENVIKING_SERVER_BIN` names
 * another `openviking-server` (an installed one, a newer version to try).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The git-ignored folder holding the venv and every run's workspace. */
export const REAL_SERVER_HOME = join(REPO_ROOT, '.openviking-server');

/** The pinned version the suite runs (the requirements file says the same; tests/real/install.real.test.ts checks). */
export const PINNED_VERSION = '0.5.2';

export const INSTALL_COMMAND = 'scripts/dev/openviking.sh install';

/** The `openviking-server` executable to run, or undefined when none is installed. */
export function serverBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.OPENVIKING_SERVER_BIN;
  if (named !== undefined && named !== '') return named;
  const venv = join(REAL_SERVER_HOME, 'venv', 'bin', 'openviking-server');
  return existsSync(venv) ? venv : undefined;
}
