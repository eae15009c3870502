/**
 * The sandbox of the fuzz drivers: a HOME and workspace from mkdtemp, the
 * fixture transcripts copied in (so valid capture payloads point at real
 * files), the OpenViking test server with a few memories, and the knobs
 * that keep every stage's deadline short (a fuzz case must be quick, and
 * the bounds are what is being checked).
 *
 * @module
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOvServer } from '../../support/ov-server/index.js';
import type { OvTestServer } from '../../support/ov-server/index.js';
import { REPO_ROOT } from '../../support/spawn-hook.js';
import type { CaseContext } from './stdinCases.js';

export interface FuzzWorld extends CaseContext {
  root: string;
  home: string;
  server: OvTestServer;
  /** Environment for hook deps and hook processes (no inherited OPENVIKING_*). */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'transcripts');

/** Every fixture transcript's absolute path. */
export function fixtureTranscripts(): string[] {
  return ['codebuddy', 'claude-code'].flatMap((dir) =>
    readdirSync(join(FIXTURES, dir))
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(FIXTURES, dir, name)),
  );
}

export async function createFuzzWorld(): Promise<FuzzWorld> {
  const root = mkdtempSync(join(tmpdir(), 'ov-fuzz-'));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const transcriptDir = join(root, 'transcripts');
  for (const dir of [home, workspace, transcriptDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const transcripts = fixtureTranscripts().map((source, index) => {
    const target = join(transcriptDir, `${index}-${source.split('/').pop() ?? 'x.jsonl'}`);
    copyFileSync(source, target);
    return target;
  });
  const server = await startOvServer({
    seed: {
      files: {
        'memories/preferences/fuzz/editor.md': { content: 'Uses Helix as the editor.', abstract: 'Editor: Helix' },
        'memories/entities/fuzz/project.md': { content: 'The project is a Rust CLI.', abstract: 'Project: Rust CLI' },
      },
    },
  });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OPENVIKING_URL: server.url,
    CODEBUDDY_PROJECT_DIR: workspace,
    OPENVIKING_PROMPT_DEADLINE_MS: '500',
    OPENVIKING_START_DEADLINE_MS: '700',
    OPENVIKING_SYNC_CAPTURE_DEADLINE_MS: '1000',
    OPENVIKING_TIMEOUT_MS: '1000',
    OPENVIKING_PENDING_REPLAY_BUDGET_MS: '200',
    OPENVIKING_LOCK_TIMEOUT_MS: '200',
  };
  return {
    root,
    home,
    workspace,
    configDir: join(home, '.codebuddy'),
    transcripts,
    server,
    env,
    dispose: async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
