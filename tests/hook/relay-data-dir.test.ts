/**
 * hooks/relay.sh finds the resident's door in the data directory it works
 * out in `sh` (D45), and the door is only ever written where
 * store/paths.ts `resolveDataDir` puts it: the two must agree on every
 * spelling of the variables, or a user with a moved data directory always
 * pays node's start (a door the script never finds) while nothing fails.
 *
 * For each environment, with the shipped script under dash, bash and zsh:
 * the door is put where the TypeScript rule says (a live pid, a FIFO, a
 * key), and the script must take it: its request written beside the FIFO
 * and its line down the FIFO, which the test holds open as a resident
 * does. A `node` first on PATH records the script's way to node, which here
 * is the failure. The reply FIFO is then closed with the request left in
 * place, which the script reads as "the resident does not know the print":
 * it runs node with the payload, and that recorded run is expected. The
 * print comes from a first run with no door at all (the script's
 * `exec node hook.cjs door <print>`).
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../src/store/paths.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { waitFor } from '../store/fixtures/processes.js';

const RELAY = join(REPO_ROOT, 'hooks', 'relay.sh');
const KEY = 'ab12cd34';
const root = mkdtempSync(join(tmpdir(), 'ov-relay-dir-'));
const home = join(root, 'home');
mkdirSync(home, { mode: 0o700 });
const bin = join(root, 'bin');
mkdirSync(bin);
// Each case's runs in a log of its own (named in the environment, so in the print too): no case reads another's.
writeFileSync(join(bin, 'node'), '#!/bin/sh\necho "$*" >>"$NODE_RUNS_LOG"\ncat >/dev/null\n');
chmodSync(join(bin, 'node'), 0o755);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The spellings the TypeScript rule reads: the override, the config dir, `~`, placeholders, relative paths. */
const CASES: Array<{ name: string; vars: Record<string, string> }> = [
  { name: 'nothing set: ~/.codebuddy/openviking', vars: {} },
  { name: 'the override, absolute', vars: { OPENVIKING_CODEBUDDY_DATA_DIR: join(root, 'override') } },
  { name: 'the override under ~/', vars: { OPENVIKING_CODEBUDDY_DATA_DIR: '~/moved/data' } },
  { name: 'the override ~ alone', vars: { OPENVIKING_CODEBUDDY_DATA_DIR: '~' } },
  {
    name: 'the override over the config dir',
    vars: { OPENVIKING_CODEBUDDY_DATA_DIR: join(root, 'both'), CODEBUDDY_CONFIG_DIR: join(root, 'config') },
  },
  { name: 'the config dir, absolute', vars: { CODEBUDDY_CONFIG_DIR: join(root, 'config') } },
  { name: 'the config dir under ~/', vars: { CODEBUDDY_CONFIG_DIR: '~/.cb' } },
  {
    name: 'an unexpanded placeholder in the override: the config dir',
    vars: { OPENVIKING_CODEBUDDY_DATA_DIR: '${HOME}/data', CODEBUDDY_CONFIG_DIR: join(root, 'config2') },
  },
  { name: 'a relative override: the default', vars: { OPENVIKING_CODEBUDDY_DATA_DIR: 'relative/data' } },
  { name: 'an empty config dir: the default', vars: { CODEBUDDY_CONFIG_DIR: '' } },
];

let nodeLog = '';
let cases = 0;
const nodeRuns = (): string[] => (existsSync(nodeLog) ? readFileSync(nodeLog, 'utf8').split('\n').filter(Boolean) : []);

function envOf(vars: Record<string, string>): Record<string, string> {
  nodeLog = join(root, `node-runs-${++cases}.log`);
  return { PATH: `${bin}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', NODE_RUNS_LOG: nodeLog, ...vars };
}

/** The script's print for this environment: with no door anywhere it execs node with it. */
function printOf(shell: string, env: Record<string, string>): string {
  rmSync(nodeLog, { force: true });
  spawnSync(shell, [RELAY], { env, cwd: root, input: '{}', encoding: 'utf8' });
  const run = nodeRuns()[0] ?? '';
  const print = /hook\.cjs door (\d+-\d+)$/.exec(run)?.[1];
  if (print === undefined) throw new Error(`relay.sh did not go to node with a print: ${JSON.stringify(nodeRuns())}`);
  return print;
}

/** Opens and closes the reply FIFO for writing once its reader (`cat`) holds it: false until then (ENXIO). */
function closedReply(reply: string): boolean {
  try {
    closeSync(openSync(reply, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw error;
  }
}

/** What the FIFO held open at `fd` has waiting ('' for nothing yet). */
function readWaiting(fd: number): string {
  const buffer = Buffer.alloc(4096);
  try {
    return buffer.toString('utf8', 0, readSync(fd, buffer));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return '';
    throw error;
  }
}

describe('relay.sh finds the door where store/paths.ts puts it', () => {
  for (const shell of ['/bin/dash', '/bin/bash', '/usr/bin/zsh']) {
    for (const { name, vars } of CASES) {
      it(`${name} (${shell})`, async () => {
        const env = envOf(vars);
        const dir = join(resolveDataDir(env, home), 'resident');
        rmSync(dir, { recursive: true, force: true });
        const print = printOf(shell, env);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const fifo = join(dir, `${KEY}.fifo`);
        spawnSync('mkfifo', [fifo]);
        // Held open for reading as the resident holds its FIFO: the script's line lands here once its request is written.
        const listening = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
        // A live, running pid (this test's own), as a resident's would be.
        writeFileSync(join(dir, `door-${print}`), `${KEY} ${process.pid}\n`);
        rmSync(nodeLog, { force: true });
        const relay = spawn(shell, [RELAY], { env, cwd: root, stdio: ['pipe', 'ignore', 'ignore'] });
        relay.stdin.end('{"hook_event_name":"UserPromptSubmit"}');
        const exited = new Promise<void>((done) => relay.on('exit', () => done()));
        const request = join(dir, `${KEY}-${relay.pid}-door.request`);
        const reply = join(dir, `${KEY}-${relay.pid}-door.reply`);
        try {
          let line = '';
          await waitFor(() => (line += readWaiting(listening)).endsWith('\n') || nodeRuns().length > 0, 10_000);
          expect(nodeRuns(), 'relay.sh went to node: it looked for the door elsewhere').toEqual([]);
          expect(line).toBe(`${relay.pid}-door @${print}\n`);
          expect(readFileSync(request, 'utf8').split('\n')[1]).toBe('{"hook_event_name":"UserPromptSubmit"}');
          // The reply closed with the request left untaken ("not known here"): the script hands the payload to node.
          await waitFor(() => closedReply(reply), 10_000);
          await exited;
          expect(nodeRuns()).toEqual([`${REPO_ROOT}/hooks/../scripts/hook.cjs door ${print}`]);
        } finally {
          relay.kill();
          closeSync(listening);
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
