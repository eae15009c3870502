/**
 * The resident helper: one long-lived process per configuration that runs
 * the prompt stage for every UserPromptSubmit hook of that configuration,
 * and the start stage for every SessionStart (D44).
 *
 * Why it exists (DESIGN D16): a prompt hook that does its own recall pays,
 * on every prompt, node's cold start of the stage code, `node:net`, a TCP
 * connect and the status write, ~25 ms over a bare `node -e 0`. A hook that
 * hands the event to a warm process through a FIFO pays none of that; the
 * resident answers in about the server's own response time.
 *
 * Lifecycle, each rule so that no state can leave a prompt without an
 * answer inside its budget:
 * - one resident per key: it holds `<key>.lock` (store/lock.ts, stale-safe)
 *   for its whole life, refreshing the heartbeat on every tick; a second
 *   one started concurrently finds the lock busy and exits;
 * - it makes its FIFO only once it holds the lock, and removes it before it
 *   stops reading, so a hook either reaches a reader or learns at `open`
 *   that there is none (client.ts); requests already in the pipe when it
 *   retires are still served during a short drain;
 * - it retires when idle (`OPENVIKING_RESIDENT_IDLE_MS`, default 15 min),
 *   when the configuration switches residents off (`OPENVIKING_RESIDENT`,
 *   also from ovcli.conf: loaded again on the tick that finds it changed),
 *   after its maximum lifetime, when its code file changes (plugin update or
 *   rebuild), when its FIFO is no longer the one it made (a hook retired it
 *   for answering late, or the data directory was removed), when it loses
 *   its lock, and when it is asked to stop (SIGTERM, SIGINT, SIGHUP);
 *   a SIGKILLed one leaves a FIFO nobody reads, which hooks see at `open`
 *   (ENXIO), and a lock whose dead holder the next resident reclaims;
 * - every request runs under a cap inside the hook's wait, and any failure
 *   is answered with the pass-through, so a hook never waits for nothing.
 *
 * @module
 */
import { statSync } from 'node:fs';
import type { Logger, Stage, StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import { createConfigWatch } from '../config/configFiles.js';
import type { PluginConfig } from '../config/types.js';
import { withTimeout } from '../util/withTimeout.js';
import { loadStageConfig, type ConfigHolder } from '../session/stageContext.js';
import { ensurePrivateDirSync } from '../store/atomic.js';
import { removeFileQuietly } from '../store/fsUtil.js';
import { tryLock } from '../store/lock.js';
import { resolveDataDir } from '../store/paths.js';
import { retireIdlestBeyondCap, sweepLeftovers } from './housekeeping.js';
import { REQUEST_ID, residentKey, residentPaths, stageEnvironment } from './identity.js';
import type { ResidentPaths } from './identity.js';
import { decodeRequest } from './wire.js';
import type { ResidentRequest } from './wire.js';
import { answerThroughFifo, decodeDoorRequest, DoorRegistry } from './door.js';
import { makeOwnFifo, readRequest, writeReply } from './exchangeFiles.js';
import type { FileIdentity } from './exchangeFiles.js';
import { encodeStageResult } from '../protocol/envelope.js';
import { socketBufferBytes, withReadBarrier } from '../protocol/readBarrier.js';
import { errorMessage } from '../util/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * How long a finished connection to the server waits for the next recall
 * (openviking/socketHttp.ts), kept under common servers' keep-alive
 * timeouts (uvicorn and node: 5 s) so the server never closes one under us.
 */
export const KEEP_ALIVE_MS = 3_000;
/** A resident never lives longer than this, whatever its traffic. */
export const MAX_LIFETIME_MS = 12 * 60 * 60_000;
/** How often the resident checks its lock, FIFO, code file, idle time and leftovers. */
export const TICK_MS = 2_000;
/** Heartbeat age after which another resident may reclaim the lock (a wedged event loop stops refreshing). */
export const LOCK_STALE_MS = 30_000;
/** After removing its FIFO, the resident still serves what hooks wrote just before, for this long. */
export const DRAIN_MS = 250;
/** One request's stage never runs longer than this (the hook stops waiting at the relay's RESIDENT_WAIT_MS (stages/relay.ts)). */
export const REQUEST_CAP_MS = 5_500;
/** Longest wait for a request's `afterAnswer` work (status files) once its reply is written. */
const AFTER_ANSWER_CAP_MS = 2_000;
/** A partial FIFO line longer than this is no hook's (hooks write whole lines of at most PIPE_BUF); it is dropped. */
const MAX_PARTIAL_LINE_CHARS = 64 * 1024;

export interface ResidentHost {
  /** The stage a request runs (its event's: prompt or start), handed in by the resident's entry (hook/resident.ts). */
  stage: Stage;
  /** The resident's own environment: it chooses the key, exactly as in the hook that started it. */
  env: Env;
  homeDir: string;
  pluginRoot: string;
  /** This process's id, named in its door files (door.ts). */
  pid: number;
  now(): number;
  /** A monotonic clock in ms, for the door's reply deadline. */
  monotonicMs(): number;
  log: Logger;
  /** Creates a FIFO at `path` with mode 0600; throws when it cannot. */
  makeFifo(path: string): void;
  /** Opens the FIFO for reading (never at end-of-file) and hands over each chunk read. */
  listen(path: string, onChunk: (text: string) => void): { close(): void };
  /** The stage's outside world for one request (env and cwd of the hook that sent it). */
  createStageDeps(env: Record<string, string>, cwd: string): { deps: StageDeps; settle(capMs: number): Promise<void> };
  /** A file whose change (mtime) means the plugin was updated: the resident then retires. */
  codeFile: string;
  tickMs?: number;
  /** Settles when the process is asked to stop (SIGTERM, SIGINT, SIGHUP): the resident retires at once, cleanly. */
  stopRequested?: Promise<void>;
}

export type ResidentExit =
  | 'busy'
  | 'no-fifo'
  | 'idle'
  | 'lifetime'
  | 'code-changed'
  | 'fifo-gone'
  | 'lock-lost'
  | 'stopped'
  | 'switched-off'
  | 'failed';

/** Serves until retirement; resolves with the reason. Never rejects. */
export async function serveResident(host: ResidentHost): Promise<ResidentExit> {
  try {
    return await serveUnderLock(host);
  } catch (error) {
    host.log.warn('resident: failed; prompt hooks run recall themselves', { error: errorMessage(error) });
    return 'failed';
  }
}

async function serveUnderLock(host: ResidentHost): Promise<ResidentExit> {
  // Loaded again by a tick or a request that finds a configuration file changed (config/configFiles.ts); its warnings are the stage's.
  const config = createConfigWatch({
    load: () => loadStageConfig({ env: host.env, homeDir: host.homeDir, log: host.log }),
    env: host.env,
    homeDir: host.homeDir,
    warn: () => undefined,
  });
  const current = (): PluginConfig => {
    config.refresh();
    return config.current();
  };
  if (!current().settings.resident) return 'switched-off';
  const dataDir = resolveDataDir(host.env, host.homeDir);
  const key = residentKey(host.env, host.pluginRoot);
  const paths = residentPaths(dataDir, key);
  ensurePrivateDirSync(paths.dir);
  const lock = await tryLock(paths.lock, { now: host.now, staleMs: LOCK_STALE_MS });
  if (!lock.ok) {
    host.log.debug('resident: another one holds the key', { reason: lock.reason });
    return 'busy';
  }
  try {
    const fifo = makeOwnFifo(host, paths.fifo);
    if (fifo === undefined) return 'no-fifo';
    const retired = retireIdlestBeyondCap(dataDir, key);
    host.log.debug('resident: listening', {
      fifo: paths.fifo,
      ...(retired.length > 0 ? { retiredIdlest: retired } : {}),
    });
    const doors = new DoorRegistry(paths.dir, key, host.pid);
    return await new Residency(host, paths, fifo, lock.handle.refresh, current, doors).run();
  } finally {
    await lock.handle.release();
  }
}

/** One resident's serving state, from its FIFO's creation to its retirement. */
class Residency {
  private readonly startedAt: number;
  private lastRequestAt: number;
  private readonly inflight = new Set<Promise<void>>();
  private pendingText = '';
  private readonly codeStamp: number | undefined;

  constructor(
    private readonly host: ResidentHost,
    private readonly paths: ResidentPaths,
    private readonly fifo: FileIdentity,
    private readonly refreshLock: () => Promise<boolean>,
    /** Its configuration now (a few `stat`s), its stages' too: their environment adds only the project directory, which no configuration reads. */
    private readonly config: () => PluginConfig,
    private readonly doors: DoorRegistry,
  ) {
    this.startedAt = host.now();
    this.lastRequestAt = this.startedAt;
    this.codeStamp = mtimeOf(host.codeFile);
  }

  async run(): Promise<ResidentExit> {
    const listener = this.host.listen(this.paths.fifo, (text) => this.take(text));
    const reason = await this.untilRetired();
    this.doors.closeAll();
    if (this.ownsFifo()) removeFileQuietly(this.paths.fifo);
    await sleep(DRAIN_MS);
    listener.close();
    await Promise.all(this.inflight);
    this.host.log.debug('resident: retired', { reason, servedForMs: this.host.now() - this.startedAt });
    return reason;
  }

  private untilRetired(): Promise<ResidentExit> {
    return new Promise((resolve) => {
      const retire = (reason: ResidentExit): void => {
        clearInterval(timer);
        resolve(reason);
      };
      const timer = setInterval(() => {
        this.check().then(
          (reason) => {
            if (reason !== undefined) retire(reason);
          },
          () => retire('failed'),
        );
      }, this.host.tickMs ?? TICK_MS);
      void this.host.stopRequested?.then(() => retire('stopped'));
    });
  }

  /** @returns why the resident must retire now, if it must. */
  private async check(): Promise<ResidentExit | undefined> {
    if (!this.ownsFifo()) return 'fifo-gone';
    if (!(await this.refreshLock())) return 'lock-lost';
    if (mtimeOf(this.host.codeFile) !== this.codeStamp) return 'code-changed';
    const now = this.host.now();
    if (now - this.startedAt >= MAX_LIFETIME_MS) return 'lifetime';
    sweepLeftovers(this.paths.dir, now);
    const { settings } = this.config();
    if (!settings.resident) return 'switched-off';
    if (this.inflight.size === 0 && now - this.lastRequestAt >= settings.residentIdleMs) return 'idle';
    return undefined;
  }

  private ownsFifo(): boolean {
    const current = statSync(this.paths.fifo, { throwIfNoEntry: false });
    return current !== undefined && current.dev === this.fifo.dev && current.ino === this.fifo.ino;
  }

  /**
   * Splits the FIFO's bytes into request lines (`<id> <json>` or `<id>`,
   * wire.ts); a line that does not start with a request id is ignored.
   */
  private take(text: string): void {
    const lines = (this.pendingText + text).split('\n');
    this.pendingText = lines.pop() ?? '';
    if (this.pendingText.length > MAX_PARTIAL_LINE_CHARS) this.pendingText = '';
    for (const line of lines) {
      const space = line.indexOf(' ');
      const id = space === -1 ? line : line.slice(0, space);
      if (!REQUEST_ID.test(id)) continue;
      this.lastRequestAt = this.host.now();
      const served = this.serve(id, space === -1 ? undefined : line.slice(space + 1)).finally(() =>
        this.inflight.delete(served),
      );
      this.inflight.add(served);
    }
  }

  /**
   * @param inline - the request's JSON when it came in the FIFO line (`@<print>`: a door request,
   * door.ts), else it is read from its file.
   */
  private async serve(id: string, inline: string | undefined): Promise<void> {
    if (inline?.startsWith('@') === true) return this.serveDoor(id, inline.slice(1));
    const text = inline ?? readRequest(this.paths.request(id));
    if (text === undefined) return; // the hook already gave up and removed it
    const request = decodeRequest(text);
    if (request === undefined) {
      this.host.log.warn('resident: unreadable request; answering pass-through', { id });
      return writeReply(this.paths.reply(id), PASS, this.host.log);
    }
    if (request.door !== undefined) this.doors.open(request.door, request.env);
    await this.answer(request, (result) => writeReply(this.paths.reply(id), result, this.host.log));
  }

  /** A door's request (door.ts): an unknown print leaves the request file for the script to take to node. */
  private async serveDoor(id: string, print: string): Promise<void> {
    const deadline = this.host.monotonicMs() + REQUEST_CAP_MS;
    const env = this.doors.lookup(print);
    const send = (bytes: string): Promise<boolean> =>
      answerThroughFifo(this.paths.reply(id), bytes, deadline, this.host.monotonicMs);
    if (env === undefined) return void (await send(''));
    const text = readRequest(this.paths.request(id));
    const door = text === undefined ? undefined : decodeDoorRequest(text);
    if (door === undefined) return void (await send(''));
    const event = door.input.hook_event_name;
    await this.answer({ input: door.input, cwd: door.cwd, env }, async (result, stageEnv) => {
      const sent = await send(withReadBarrier(encodeStageResult(event, result), stageEnv, socketBufferBytes));
      this.host.log.debug('resident: answered through a door', { event, sent });
    });
  }

  /** Runs the request's stage under the cap, hands its result to `send`, then waits for its after-answer work. */
  private async answer(
    request: ResidentRequest,
    send: (result: StageResult, stageEnv: Record<string, string>) => void | Promise<void>,
  ): Promise<void> {
    const env = stageEnvironment(this.host.env, request.env);
    const stage = this.host.createStageDeps(env, request.cwd);
    // The stage records that the resident answered (StageDeps.runner): `why`, doctor and the tests read it.
    const deps: StageDeps & ConfigHolder = { ...stage.deps, runner: 'resident', loadedConfig: this.config };
    const answer = Promise.resolve().then(() => this.host.stage(request.input, deps));
    await send(await withTimeout(answer, REQUEST_CAP_MS, PASS).catch(() => PASS), env);
    await stage.settle(AFTER_ANSWER_CAP_MS);
  }
}

function mtimeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
