/**
 * A file the plugin cannot parse is named by position, never quoted (issue
 * 29 item 4). On 4953f41 a cloned repository's `.openviking/config.json`
 * linked to `~/.git-credentials` was read and parsed before its
 * containment check, and doctor printed `Unexpected token 'h',
 * "https://al"...` (what `/openviking:doctor` hands the model); every other
 * reader of JSON files passed the engine's message on the same way:
 * ovcli.conf, the host's settings.json (plugin options), hooks.json and the
 * plugin's own state files.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHooks } from '../../src/doctor/hooksCheck.js';
import { readJsonDetailed } from '../../src/store/jsonFile.js';
import { freshHome, runDoctorInProcess } from '../doctor/support.js';

const SECRET = 'ghp_Zx81yQ0pLm4Tr7Vw2Ks9Nd3Hb6Jc5Ga1Fe0';
const CREDENTIALS = `https://alice:${SECRET}@github.com\n`;

function expectNothingQuoted(text: string): void {
  for (const piece of ['https://al', 'alice', 'ghp_', SECRET.slice(-10), 'Unexpected token'])
    expect(text, `quoted ${piece}`).not.toContain(piece);
}

/** A fresh HOME with ~/.git-credentials and a workspace (a folder of its own with `.openviking/`). */
function homeWithWorkspace(): { home: string; workspace: string } {
  const home = realpathSync(freshHome());
  writeFileSync(join(home, '.git-credentials'), CREDENTIALS, { mode: 0o600 });
  const workspace = join(home, 'src', 'cloned');
  mkdirSync(join(workspace, '.openviking'), { recursive: true });
  return { home, workspace };
}

describe('a workspace file linked out of the workspace', () => {
  it.each(['config.json', 'config.local.json'])(
    '.openviking/%s → ~/.git-credentials: doctor names the link, reads nothing of it',
    async (name) => {
      const { home, workspace } = homeWithWorkspace();
      symlinkSync(join(home, '.git-credentials'), join(workspace, '.openviking', name));
      const run = await runDoctorInProcess(
        { json: false },
        { OPENVIKING_URL: 'http://127.0.0.1:9' },
        home,
        undefined,
        workspace,
      );
      expect(run.stdout).toContain(`${join(workspace, '.openviking', name)} resolves outside the workspace`);
      expectNothingQuoted(run.stdout);
    },
  );
});

describe('files that are not JSON are named by line and column', () => {
  it('ovcli.conf with a trailing comma', async () => {
    const home = freshHome();
    mkdirSync(join(home, '.openviking'));
    writeFileSync(
      join(home, '.openviking', 'ovcli.conf'),
      `{\n  "url": "https://openviking.example.com",\n  "api_key": "${SECRET}",\n}\n`,
    );
    const run = await runDoctorInProcess({ json: false }, { OPENVIKING_URL: 'http://127.0.0.1:9' }, home);
    expect(run.stdout).toContain(
      "~/.openviking/ovcli.conf is not valid JSON (line 3, column 55: a comma before '}' (a trailing comma))",
    );
    expectNothingQuoted(run.stdout);
  });

  it("the host's settings.json, read for the plugin options", async () => {
    const home = freshHome();
    mkdirSync(join(home, '.codebuddy'));
    writeFileSync(join(home, '.codebuddy', 'settings.json'), `{"pluginConfigs": {"x": ${CREDENTIALS}}}`);
    const run = await runDoctorInProcess({ json: false }, { OPENVIKING_URL: 'http://127.0.0.1:9' }, home);
    expect(run.stdout).toContain('~/.codebuddy/settings.json is not valid JSON (line 1, column 25:');
    expectNothingQuoted(run.stdout);
  });

  it("the plugin's hooks.json", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ov-parse-hooks-'));
    mkdirSync(join(root, 'hooks'));
    writeFileSync(join(root, 'hooks', 'hooks.json'), CREDENTIALS);
    const check = await checkHooks(root, () => Promise.resolve({ code: 0, stdout: '' }));
    expect(check.status).toBe('fail');
    expect(check.lines.join('\n')).toContain('is not valid JSON (line 1, column 1:');
    expectNothingQuoted(check.lines.join('\n'));
  });

  it("the plugin's own state files", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ov-parse-state-')), 'state.json');
    writeFileSync(file, `{"cursor": 3, ${CREDENTIALS}}`);
    const read = await readJsonDetailed(file);
    expect(read).toMatchObject({ status: 'corrupt' });
    const reason = read.status === 'corrupt' ? read.reason : '';
    expect(reason).toContain('line 1, column 15: expected a property name in double quotes');
    expectNothingQuoted(reason);
  });
});
