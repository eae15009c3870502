/**
 * How an import answers a server that refuses for now (429, 503, no answer;
 * DESIGN D35): every job pauses, FIRST_PAUSE_MS doubling (once per pause,
 * however many jobs were refused; from FIRST_PAUSE_MS again for the next
 * session) up to MAX_PAUSE_MS, then the refused
 * session is tried again, one retry at a time (its pass first replays what
 * was queued, capture/pass.ts, and the queue has one replayer at a time:
 * retries side by side would keep finding it busy); a session still refused after
 * MAX_TRIES stays queued for the next session start, and GIVE_UP_AFTER such
 * sessions in a row end the import: what is left is not started (it is not
 * sent into a server that keeps saying no, nor piled into the queue).
 *
 * @module
 */

export const FIRST_PAUSE_MS = 500;
export const MAX_PAUSE_MS = 30_000;
const MAX_TRIES = 5;
const GIVE_UP_AFTER = 3;

export class Backoff {
  /** The server kept refusing: start nothing more. */
  gaveUp = false;
  private pauseMs = 0;
  private until = 0;
  private refusedInARow = 0;
  /** Retries run one after another: the tail of their chain. */
  private retries: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** `attempt()` after any pause in force, again while `refused` says so (at most MAX_TRIES times). */
  async retry<T>(attempt: () => Promise<T>, refused: (result: T) => boolean): Promise<T> {
    for (let tries = 1; ; tries++) {
      await this.waitOut();
      const result = tries === 1 ? await attempt() : await this.oneAtATime(attempt);
      if (!refused(result)) {
        this.pauseMs = 0;
        this.refusedInARow = 0;
        return result;
      }
      if (tries >= MAX_TRIES) {
        if (++this.refusedInARow >= GIVE_UP_AFTER) this.gaveUp = true;
        this.pauseMs = 0; // the next session's tries start short again
        return result;
      }
      if (this.now() >= this.until) {
        this.pauseMs = this.pauseMs === 0 ? FIRST_PAUSE_MS : Math.min(MAX_PAUSE_MS, this.pauseMs * 2);
        this.until = this.now() + this.pauseMs;
      }
    }
  }

  private oneAtATime<T>(attempt: () => Promise<T>): Promise<T> {
    const run = this.retries.then(attempt, attempt);
    this.retries = run.catch(() => undefined);
    return run;
  }

  private async waitOut(): Promise<void> {
    for (let left = this.until - this.now(); left > 0; left = this.until - this.now()) await this.sleep(left);
  }
}
