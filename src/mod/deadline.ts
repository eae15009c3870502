/**
 * The hooks module's deadlines: a hooks module has no timers of its own
 * (the host's declarations: it waits on `$.clock`), so a race against
 * `$.clock.sleep`, whose wait is aborted as soon as the work wins. A sleep
 * the host refuses counts as the deadline passed: a wait without a bound is
 * what a deadline is there to prevent.
 *
 * @module
 */
import { withTimeout, type StartTimer } from '../util/withTimeout.js';
import type { Engine } from './host.js';

/** What `within` resolves to when the time ran out first. */
export const LATE: unique symbol = Symbol('late');

/** `work`'s value, or LATE once `ms` passed first; `work`'s rejection passes through (util/withTimeout.ts's race, on the host's clock). */
export function within<T>($: Engine, work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  return withTimeout(work, Math.max(1, ms), LATE, hostTimer($));
}

/** A wait on `$.clock.sleep`, aborted when stopped; a sleep the host refuses ends the wait at once. */
function hostTimer($: Engine): StartTimer {
  return (ms, expire) => {
    const stop = new AbortController();
    $.clock.sleep(ms, { signal: stop.signal }).then(expire, expire);
    return () => stop.abort();
  };
}

/**
 * How long the module's local preparation may take (the environment, the
 * file snapshot's rounds): measured at 10–40 ms; a `$` call that never
 * answers must not hold the prompt (the host does not count time spent in
 * `$` calls against a hook's budget).
 */
export const PREPARE_MS = 1_000;

/** `work`'s value; throws naming `what` once `ms` passed first (the caller gives the event to the hook command). */
export async function bounded<T>($: Engine, work: Promise<T>, ms: number, what: string): Promise<T> {
  const value = await within($, work, ms);
  if (value === LATE) throw new Error(`${what} took longer than ${ms} ms`);
  return value;
}
