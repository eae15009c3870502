/**
 * A client whose every answer is also shown to an observer, unchanged: the
 * session start watches its calls for the memory-off notice
 * (stages/notice.ts), and every stage that talks to the server records
 * whether it answered (store/status.ts `serverStatusOf`), for the status line
 * and doctor.
 *
 * @module
 */
import type { OpenVikingClient, OvResult } from './types.js';

/** `client` with `observe` called on each result (after the call, before the caller sees it). */
export function observeResults(
  client: OpenVikingClient,
  observe: (result: OvResult<unknown>) => void,
): OpenVikingClient {
  const observed = { ...client } as Record<string, unknown>;
  for (const [name, value] of Object.entries(client)) {
    if (typeof value !== 'function') continue;
    observed[name] = async (...args: unknown[]) => {
      const result = (await (value as (...a: unknown[]) => Promise<OvResult<unknown>>).apply(
        client,
        args,
      )) as OvResult<unknown>;
      observe(result);
      return result;
    };
  }
  return observed as unknown as OpenVikingClient;
}
