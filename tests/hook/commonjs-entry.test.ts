/**
 * The hook side is CommonJS (D38): every node process a shipped hook
 * command starts (directly, through the guard prefilter, through the
 * write-path detacher, and the jobs those start) runs scripts/hook.cjs and
 * its `.cjs` lazy files, and never starts node's ESM loader, the floor an ES
 * entry put under every node hook path. The documented command line,
 * `node scripts/hook.mjs <command>`, still works: its ES shim runs the same
 * CommonJS entry.
 *
 * A preload that every node of the sandbox's hooks inherits
 * (NODE_OPTIONS=--require) records, as each process exits, its argv,
 * whether node loaded `internal/modules/esm/loader` and the command line's
 * parser (`util.parseArgs`, D41: a person's command only, never a hook),
 * whether it loaded `node:fs/promises`, and the CommonJS files it required.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_ENTRY, HOOK_SHIM } from '../../src/protocol/entryFiles.js';
import { writeTranscriptOfSize } from '../faults/support/turns.js';
import { pluginProcessesGone } from '../support/detached.js';
import { createWorld, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';

const ESM_LOADER = 'NativeModule internal/modules/esm/loader';
const ARGS_PARSER = 'NativeModule internal/util/parse_args/parse_args';
const FS_PROMISES = 'NativeModule fs/promises';

interface ProcessRecord {
  argv: string[];
  esmLoader: boolean;
  parser: boolean;
  fsPromises: boolean;
  required: string[];
}

const probeDir = mkdtempSync(join(tmpdir(), 'ov-cjs-probe-'));
const recordsDir = join(probeDir, 'records');
const probe = join(probeDir, 'probe.cjs');
writeFileSync(
  probe,
  [
    "const { mkdirSync, writeFileSync } = require('node:fs');",
    "process.on('exit', () => {",
    '  const dir = process.env.OV_ENTRY_PROBE_DIR;',
    '  mkdirSync(dir, { recursive: true });',
    '  writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({',
    '    argv: process.argv.slice(1),',
    `    esmLoader: process.moduleLoadList.includes(${JSON.stringify(ESM_LOADER)}),`,
    `    parser: process.moduleLoadList.includes(${JSON.stringify(ARGS_PARSER)}),`,
    `    fsPromises: process.moduleLoadList.includes(${JSON.stringify(FS_PROMISES)}),`,
    '    required: Object.keys(require.cache),',
    '  }));',
    '});',
  ].join('\n'),
);
const probeEnv = { NODE_OPTIONS: `--require ${probe}`, OV_ENTRY_PROBE_DIR: recordsDir };
afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

function takeRecords(): ProcessRecord[] {
  let names: string[];
  try {
    names = readdirSync(recordsDir);
  } catch {
    return [];
  }
  const records = names.map((name) => JSON.parse(readFileSync(join(recordsDir, name), 'utf8')) as ProcessRecord);
  rmSync(recordsDir, { recursive: true, force: true });
  return records;
}

/** The plugin's own files a process required, relative to the plugin root. */
const pluginFiles = (record: ProcessRecord): string[] =>
  record.required.filter((file) => file.startsWith(`${REPO_ROOT}/`)).map((file) => file.slice(REPO_ROOT.length + 1));

describe('the hook entry is CommonJS (D38)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ env: probeEnv });
  });
  afterAll(async () => {
    await world.dispose();
  });

  it('every node a shipped hook command starts runs scripts/hook.cjs and never loads the ESM loader', async () => {
    const p = world.payloads();
    writeTranscriptOfSize(p.transcriptPath, 'cjs', 4 * 1024, { sessionId: p.sessionId, cwd: world.workspace });
    const events: Array<[string, Record<string, unknown>]> = [
      ['SessionStart', p.sessionStart('startup')],
      ['UserPromptSubmit', p.userPromptSubmit(RECALL_PROMPT)],
      ['PreToolUse', p.preToolUse('Read', { file_path: 'viking://user/default/memories/x.md' })],
      ['Stop', p.stop('done')],
      ['PreCompact', p.preCompact('auto')],
      ['SessionEnd', p.sessionEnd('other')],
    ];
    const answers: Record<string, string> = {};
    for (const [event, payload] of events) {
      const result = await world.sim.fire(event, payload);
      expect(result.hooks[0]?.process?.exitCode, `${event}: ${result.hooks[0]?.process?.stderr}`).toBe(0);
      answers[event] = result.hooks[0]?.process?.stdout ?? '';
    }
    // The paths did their work: a recall hit and a deny (so node ran the stages, not a pass-through).
    expect(answers['UserPromptSubmit']).toContain(RECALL_MARKER);
    expect(answers['PreToolUse']).toContain('"permissionDecision":"deny"');
    expect(await pluginProcessesGone(world.home, 30_000)).toBe(true);

    const records = takeRecords();
    expect(records.length).toBeGreaterThanOrEqual(events.length);
    for (const record of records) {
      expect(resolve(record.argv[0] ?? ''), record.argv.join(' ')).toBe(join(REPO_ROOT, HOOK_ENTRY));
      expect(record.esmLoader, record.argv.join(' ')).toBe(false);
      expect(record.parser, record.argv.join(' ')).toBe(false);
    }
    // A process that ran the entry alone (the guard's deny) never loads
    // node:fs/promises, ~2.4 ms of every hook's start-up when the entry
    // carried it (issue 39); the lazy stages may.
    const entryOnly = records.filter((record) => !pluginFiles(record).some((file) => file.startsWith('scripts/lazy/')));
    expect(entryOnly.length).toBeGreaterThanOrEqual(1);
    for (const record of entryOnly) expect(record.fsPromises, record.argv.join(' ')).toBe(false);
    const lazyLoaded = new Set(records.flatMap(pluginFiles).filter((file) => file.startsWith('scripts/lazy/')));
    for (const lazy of ['start', 'prompt', 'capture']) expect(lazyLoaded).toContain(`scripts/lazy/${lazy}.cjs`);
    expect(lazyLoaded).not.toContain('scripts/lazy/cli.cjs');
    expect(records.some((record) => record.argv[1] === 'detached')).toBe(true);
  }, 60_000);

  it('`node scripts/hook.mjs --version` runs the CommonJS entry through the ES shim', async () => {
    takeRecords();
    const run = await runProcess(process.execPath, [join(REPO_ROOT, HOOK_SHIM), '--version'], {
      env: { PATH: process.env.PATH, HOME: world.home, ...probeEnv },
      cwd: world.workspace,
      timeoutMs: 10_000,
    });
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run).toMatchObject({ exitCode: 0, stdout: `openviking-codebuddy ${version}\n` });
    const [record] = takeRecords();
    expect(
      pluginFiles(record ?? { argv: [], esmLoader: true, parser: false, fsPromises: false, required: [] }),
    ).toContain(HOOK_ENTRY);
  });

  it('a person’s command parses its arguments with util.parseArgs (the probe sees the parser when it loads)', async () => {
    takeRecords();
    const run = await runProcess(process.execPath, [join(REPO_ROOT, HOOK_SHIM), 'why', '--session=cjs-probe'], {
      env: { PATH: process.env.PATH, HOME: world.home, ...probeEnv },
      cwd: world.workspace,
      timeoutMs: 10_000,
    });
    expect(run.stdout).toContain('cjs-probe');
    const [record] = takeRecords();
    expect(record?.parser).toBe(true);
    expect(
      pluginFiles(record ?? { argv: [], esmLoader: true, parser: false, fsPromises: false, required: [] }),
    ).toContain('scripts/lazy/cli.cjs');
  });
});
