/**
 * Plain HTTP to a real server, as a test's own hands (seeding, checking what
 * the plugin left there): the envelope, the identity headers of dev mode or
 * a user key, and a wait for a commit's task to finish (phase 2, the
 * extraction, runs in the background: docs/host-facts.md F24).
 *
 * @module
 */
import { waitFor } from '../../support/wait.js';

/** Who a request speaks for: dev mode names the user (and account); api_key mode carries a key. */
export type Speaker = { user: string; account?: string; peer?: string } | { key: string; peer?: string };

export interface Envelope<T = any> {
  httpStatus: number;
  status: string;
  result: T;
  error: { code?: string; message?: string } | null;
}

export function headersFor(speaker: Speaker): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if ('key' in speaker) headers['x-api-key'] = speaker.key;
  else {
    headers['x-openviking-user'] = speaker.user;
    headers['x-openviking-account'] = speaker.account ?? 'default';
  }
  if (speaker.peer !== undefined) headers['x-openviking-actor-peer'] = speaker.peer;
  return headers;
}

export async function ov<T = any>(
  url: string,
  speaker: Speaker,
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<Envelope<T>> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: headersFor(speaker),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { status: 'error', result: null, error: { message: text } };
  }
  return { httpStatus: response.status, status: parsed.status, result: parsed.result, error: parsed.error ?? null };
}

/** Polls a commit task until it completed or failed; answers its record. */
export async function settledTask(url: string, speaker: Speaker, taskId: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(
    async () => {
      const task = await ov(url, speaker, `/api/v1/tasks/${encodeURIComponent(taskId)}`);
      const status = task.result?.status;
      return status === 'completed' || status === 'failed' || status === 'cancelled' ? task.result : undefined;
    },
    { timeoutMs, intervalMs: 250, what: `commit task ${taskId} to settle` },
  );
}

/** Every file URI under `uri` (recursive listing; [] when the folder does not exist). */
export async function filesUnder(url: string, speaker: Speaker, uri: string): Promise<string[]> {
  const listing = await ov<Array<{ uri: string; isDir: boolean }>>(
    url,
    speaker,
    `/api/v1/fs/ls?uri=${encodeURIComponent(uri)}&recursive=true&output=original&node_limit=1000`,
  );
  return listing.status === 'ok' ? listing.result.filter((entry) => !entry.isDir).map((entry) => entry.uri) : [];
}

/** A user id no other test uses (dev mode isolates tests by user). */
export function uniqueUser(label: string): string {
  return `${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
