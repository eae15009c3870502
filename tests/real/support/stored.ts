/**
 * What a real OpenViking 0.5.2 server holds of a session, read through its
 * own API, so a test counts exactly what was stored: the session record
 * (`GET /api/v1/sessions/{id}`: `total_message_count` counts every message
 * ever added, `commit_count` the archives), each archive's messages
 * (`GET /api/v1/sessions/{id}/archives/archive_NNN`) and the live ones not
 * committed yet (`<session uri>/messages.jsonl`, read with `content/read`:
 * 0.5.2 has no route listing a session's messages). docs/host-facts.md F27.
 *
 * @module
 */
import { waitFor } from '../../support/wait.js';
import { ov, type Speaker } from './http.js';

export interface StoredMessage {
  role: string;
  /** Text parts and tool parts' input and output, joined (as tests/capture/support/world.ts `messageText`). */
  text: string;
  peerId?: string;
  toolNames: string[];
}

export interface StoredSession {
  totalMessages: number;
  commits: number;
  memoriesExtracted: Record<string, number>;
  /** Archived messages (oldest archive first), then the live ones. */
  messages: StoredMessage[];
}

interface RawPart {
  type?: string;
  text?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_output?: string;
}

interface RawMessage {
  role?: string;
  parts?: RawPart[];
  peer_id?: string;
}

function toStored(message: RawMessage): StoredMessage {
  const parts = message.parts ?? [];
  return {
    role: String(message.role),
    text: parts
      .map((part) =>
        part.type === 'text'
          ? (part.text ?? '')
          : `${JSON.stringify(part.tool_input ?? null)} ${part.tool_output ?? ''}`,
      )
      .join('\n'),
    ...(message.peer_id ? { peerId: message.peer_id } : {}),
    toolNames: parts.filter((part) => part.type === 'tool').map((part) => String(part.tool_name)),
  };
}

/** The messages of a `messages.jsonl` (an archive's or the live one); none when it is not there. */
async function jsonLines(url: string, speaker: Speaker, uri: string): Promise<RawMessage[]> {
  const read = await ov<string>(url, speaker, `/api/v1/content/read?uri=${encodeURIComponent(uri)}`);
  if (read.httpStatus === 404) return [];
  if (read.status !== 'ok')
    throw new Error(`content/read ${uri} answered ${read.httpStatus}: ${JSON.stringify(read.error)}`);
  return String(read.result)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RawMessage);
}

/** The session as stored, or undefined when the server does not know it (404). */
export async function storedSession(
  url: string,
  speaker: Speaker,
  sessionId: string,
): Promise<StoredSession | undefined> {
  const path = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
  const record = await ov(url, speaker, path);
  if (record.httpStatus === 404) return undefined;
  if (record.status !== 'ok') throw new Error(`${path} answered ${record.httpStatus}: ${JSON.stringify(record.error)}`);
  const commits = Number(record.result.commit_count ?? 0);
  const sessionUri = String(record.result.uri);
  const archives = Array.from(
    { length: commits },
    (_, index) => `${sessionUri}/history/archive_${String(index + 1).padStart(3, '0')}/messages.jsonl`,
  );
  const files = await Promise.all(
    [...archives, `${sessionUri}/messages.jsonl`].map((uri) => jsonLines(url, speaker, uri)),
  );
  return {
    totalMessages: Number(record.result.total_message_count ?? 0),
    commits,
    memoriesExtracted: (record.result.memories_extracted ?? {}) as Record<string, number>,
    messages: files.flat().map(toStored),
  };
}

/** Polls until the stored session satisfies `ready` (e.g. holds n messages, or one commit). */
export async function storedWhen(
  url: string,
  speaker: Speaker,
  sessionId: string,
  ready: (session: StoredSession) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<StoredSession> {
  let last: StoredSession | string | undefined;
  return waitFor(
    async () => {
      try {
        last = await storedSession(url, speaker, sessionId);
      } catch (error) {
        // 0.5.2 answers 400 ("Expecting value") to a read racing the session's first write (F27): look again.
        last = String(error);
        return undefined;
      }
      return last !== undefined && ready(last) ? last : undefined;
    },
    { timeoutMs, intervalMs: 250, what: () => `${what} in ${sessionId} (last seen: ${JSON.stringify(last)})` },
  );
}
