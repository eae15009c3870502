/**
 * Workspace files in OpenViking's schema (issue 22 item 2, DESIGN D24):
 * `.openviking/config.json` and `config.local.json` (wins key by key), the
 * schema's keys and this plugin's earlier flat ones, and the rule that a
 * file inside a repository only ever makes the plugin do less: no server,
 * key or account; no switch turned on; recall limits only tightened. What
 * could not apply is said by doctor (its `project` check), as are clamped
 * values, a foreign version, unknown keys and a file that points outside
 * the workspace. On 6bb15b5 the schema keys and config.local.json did
 * nothing, and `"version": 2` files were read.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { PluginConfig, Settings } from '../../src/config/types.js';
import { resolveSettings } from '../../src/config/settings.js';
import { checkProject } from '../../src/doctor/projectCheck.js';
import { clearProjectCache, projectFor } from '../../src/project/identity.js';
import { memoryOffReason } from '../../src/session/switches.js';
import { APPROVALS_DIR, approveWorkspace } from './support/approved.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'ov-ws-files-')));
const home = join(base, 'home');
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeEach(() => clearProjectCache());

let counter = 0;
/** A marked folder (a workspace of its own) with the given files. */
function workspace(files: { shared?: unknown; local?: unknown }): string {
  const dir = join(base, `ws-${++counter}`);
  mkdirSync(join(dir, '.openviking'), { recursive: true });
  if (files.shared !== undefined)
    writeFileSync(
      join(dir, '.openviking', 'config.json'),
      typeof files.shared === 'string' ? files.shared : JSON.stringify(files.shared),
    );
  if (files.local !== undefined)
    writeFileSync(
      join(dir, '.openviking', 'config.local.json'),
      typeof files.local === 'string' ? files.local : JSON.stringify(files.local),
    );
  return dir;
}

function configWith(env: Record<string, string> = {}): PluginConfig {
  const { settings, sources } = resolveSettings({ env, homeDir: home });
  return {
    credentials: {
      baseUrl: 'http://127.0.0.1:9',
      mcpUrl: 'http://127.0.0.1:9/mcp',
      sources: {},
      rootKeyOnly: false,
      files: [],
    },
    settings,
    settingSources: sources,
    dataDir: APPROVALS_DIR,
    warnings: [],
  };
}

function resolved(
  dir: string,
  env: Record<string, string> = {},
): { settings: Settings; doctor: string; status: string; peerId: string | undefined; off: string | undefined } {
  const config = configWith(env);
  // As the user has it once they trusted the team file's peer (D32).
  approveWorkspace(config, dir, home);
  const { project, settings } = projectFor(config, dir, home, Date.now());
  const check = checkProject(config, dir, home, Date.now());
  return {
    settings,
    doctor: check.lines.join('\n'),
    status: check.status,
    peerId: project.peerId,
    off: memoryOffReason({ config, project, workspace: dir }),
  };
}

describe('both spellings, both files', () => {
  it("the schema keys and the flat ones switch off; where one file has both, the schema's wins", () => {
    const schema = resolved(
      workspace({ shared: { version: 1, recall: { enabled: false }, capture: { enabled: false } } }),
    );
    expect(schema.settings).toMatchObject({ autoRecall: false, autoCapture: false, enabled: true });
    const flat = resolved(workspace({ shared: { enabled: false, autoProfile: false, peerId: 'flat-peer' } }));
    expect(flat.settings).toMatchObject({ enabled: false, autoProfile: false });
    expect(flat.off).toMatch(/^enabled: false in .*config\.json$/);
    expect(flat.peerId).toBe('flat-peer');
    const both = resolved(workspace({ shared: { peerId: 'flat', peer: { id: 'schema' }, version: 1 } }));
    expect(both.peerId).toBe('schema');
    expect(both.doctor).toMatch(/'peer\.id' replaces 'peerId' of the same file/);
  });

  it("config.local.json wins key by key: its true undoes the team's false, never your own", () => {
    const undone = resolved(
      workspace({
        shared: { version: 1, recall: { enabled: false }, peer: { id: 'team' } },
        local: { version: 1, recall: { enabled: true } },
      }),
    );
    expect(undone.settings.autoRecall).toBe(true);
    expect(undone.peerId).toBe('team');
    const yours = resolved(workspace({ local: { version: 1, recall: { enabled: true } } }), {
      OPENVIKING_AUTO_RECALL: 'false',
    });
    expect(yours.settings.autoRecall).toBe(false);
    expect(yours.doctor).toMatch(
      /ignored recall\.enabled: true in .*config\.local\.json: a workspace file never turns on what your settings turn off/,
    );
    const memoryOff = resolved(workspace({ shared: { enabled: true } }), { OPENVIKING_MEMORY_ENABLED: 'false' });
    expect(memoryOff.off).toBe('OPENVIKING_MEMORY_ENABLED=false');
  });

  it('peer.source lists join across the files unless the local one starts with "!reset"', () => {
    const joined = resolved(
      workspace({
        shared: { version: 1, peer: { source: ['{git_remote}'] } },
        local: { version: 1, peer: { source: ['local-{dir}'] } },
      }),
    );
    expect(joined.peerId).toBe(`local-ws-${counter}`);
    const reset = resolved(
      workspace({
        shared: { version: 1, peer: { source: ['team-{dir}'] } },
        local: { version: 1, peer: { source: ['!reset', 'mine-{dir}'] } },
      }),
    );
    expect(reset.peerId).toBe(`mine-ws-${counter}`);
  });
});

describe('only ever less', () => {
  it('recall.max_items only lowers the limit, score_threshold only raises it, peer_scope only narrows to actor; dedup_turns applies', () => {
    const tighter = resolved(
      workspace({
        shared: { version: 1, recall: { max_items: 3, score_threshold: 0.6, peer_scope: 'actor', dedup_turns: 2 } },
      }),
    );
    expect(tighter.settings).toMatchObject({
      recallLimit: 3,
      scoreThreshold: 0.6,
      recallPeerScope: 'actor',
      recallDedupTurns: 2,
    });
    expect(tighter.doctor).toMatch(/set here: recallLimit 10 → 3/);
    const wider = resolved(
      workspace({ shared: { version: 1, recall: { max_items: 50, score_threshold: 0.1, peer_scope: 'all' } } }),
      { OPENVIKING_RECALL_PEER_SCOPE: 'actor' },
    );
    expect(wider.settings).toMatchObject({ recallLimit: 10, scoreThreshold: 0.35, recallPeerScope: 'actor' });
    expect(wider.doctor).toMatch(
      /ignored recall\.max_items: 50 in .*: a workspace file may only lower the recall limit \(yours: 10\)/,
    );
    expect(wider.doctor).toMatch(
      /ignored recall\.score_threshold: 0\.1 in .*: a workspace file may only raise the score threshold \(yours: 0\.35\)/,
    );
    expect(wider.doctor).toMatch(
      /ignored recall\.peer_scope: "all" in .*: a workspace file may only narrow the peer scope to actor/,
    );
  });

  it('a server, a key or an account is never read from it, wherever it sits; doctor warns', () => {
    const hostile = resolved(
      workspace({
        shared: {
          version: 1,
          url: 'http://evil',
          api_key: 'sk-x',
          account: 'other',
          recall: { enabled: false, api_key: 'sk-y' },
          labels: { user: 'kept as a label' },
        },
      }),
    );
    expect(hostile.status).toBe('warn');
    for (const key of ['url', 'api_key', 'account', 'recall.api_key'])
      expect(hostile.doctor).toContain(
        `ignored '${key}': a file in the workspace never sets a server, a key or an account`,
      );
    expect(hostile.doctor).not.toContain("'labels.user'");
    expect(hostile.settings.autoRecall).toBe(false);
  });
});

describe('what doctor says', () => {
  it('out-of-range values clamped with a warning; wrong types and values ignored with one', () => {
    const clamped = resolved(
      workspace({
        shared: {
          version: 1,
          recall: { max_items: 0, score_threshold: 1.5, dedup_turns: 500, peer_scope: 'team', enabled: 'maybe' },
        },
      }),
    );
    expect(clamped.status).toBe('warn');
    expect(clamped.doctor).toMatch(/clamped 'recall\.max_items' from 0 to 1 \(allowed 1\.\.100\)/);
    expect(clamped.doctor).toMatch(/clamped 'recall\.score_threshold' from 1\.5 to 1 \(allowed 0\.\.1\)/);
    expect(clamped.doctor).toMatch(/clamped 'recall\.dedup_turns' from 500 to 100/);
    expect(clamped.doctor).toMatch(/ignored 'recall\.peer_scope': "team" is not one of all, actor/);
    // A privacy switch fails closed on a word it does not understand (issue 29 item 7).
    expect(clamped.doctor).toMatch(/'recall\.enabled': "maybe" is not true or false .*reads as false/);
    expect(clamped.settings).toMatchObject({
      recallLimit: 1,
      scoreThreshold: 1,
      recallDedupTurns: 100,
      autoRecall: false,
    });
  });

  it('another version: the file is ignored; no version with schema keys: a note; unknown and unapplied keys: notes', () => {
    const future = resolved(workspace({ shared: { version: 2, recall: { enabled: false } } }));
    expect(future.settings.autoRecall).toBe(true);
    expect(future.doctor).toMatch(/declares version 2; this plugin understands 1; ignoring the file/);
    const noted = resolved(
      workspace({
        shared: {
          recall: { enabled: false, colour: 'red' },
          capture: { commit_token_threshold: 5000 },
          bypass: { session_patterns: ['x'] },
          theme: 'dark',
        },
      }),
    );
    expect(noted.settings.autoRecall).toBe(false);
    expect(noted.doctor).toMatch(/has no "version": 1; OpenViking's own plugins ignore it until it has/);
    expect(noted.doctor).toMatch(/'recall\.colour' ignored: unknown key/);
    expect(noted.doctor).toMatch(
      /'capture\.commit_token_threshold' ignored: the capture worker commits by OPENVIKING_COMMIT_TOKEN_THRESHOLD/,
    );
    expect(noted.doctor).toMatch(/'bypass\.session_patterns' ignored: use "enabled": false/);
    expect(noted.doctor).toMatch(/unknown key 'theme' ignored/);
    expect(noted.status).toBe('info');
  });

  it('a file that is a link out of the workspace, or over 64 KiB, is ignored with a warning', () => {
    const outside = join(base, 'outside.json');
    writeFileSync(outside, JSON.stringify({ enabled: false }));
    const linked = workspace({});
    symlinkSync(outside, join(linked, '.openviking', 'config.json'));
    const viaLink = resolved(linked);
    expect(viaLink.settings.enabled).toBe(true);
    expect(viaLink.doctor).toMatch(/resolves outside the workspace/);
    const big = resolved(workspace({ shared: JSON.stringify({ enabled: false, pad: 'x'.repeat(70_000) }) }));
    expect(big.settings.enabled).toBe(true);
    expect(big.doctor).toMatch(/is larger than 65536 bytes/);
  });

  it('a blanket .openviking rule in .gitignore is named', () => {
    const dir = workspace({ shared: { version: 1 } });
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n.openviking/\n');
    const report = resolved(dir);
    expect(report.status).toBe('warn');
    expect(report.doctor).toMatch(/\.gitignore ignores all of \.openviking\/: config\.json is meant to be committed/);
  });
});
