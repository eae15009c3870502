/**
 * Where past sessions are (DESIGN D35): both hosts keep one JSONL file per
 * session under `<config dir>/projects/<slug>/<session id>.jsonl`, a
 * sub-agent's beside it in `<session id>/subagents/agent-<id>.jsonl`
 * (CodeBuddy: `$CODEBUDDY_CONFIG_DIR` or `~/.codebuddy`, codebuddy-host
 * README §5; Claude Code: `$CLAUDE_CONFIG_DIR` or `~/.claude`, FC2, FC4).
 *
 * The slug is the session's folder with separators turned to `-` (each host
 * its own way, not reversible), so a folder is only a hint: for one
 * workspace, the project folders whose name, read the same way, is the
 * workspace's or starts with it; which session belongs where is then
 * decided by the working folder its records carry (`cwd`), read from the
 * file's first lines only (`readHead`).
 *
 * Which session id live capture would have used: the file's name (the
 * host's `session_id`) for a main session; for a sub-agent, the parent's,
 * and its agent id as the host's SubagentStop gives it: CodeBuddy's is the
 * file's name (`agent-5867bee3`, H §5 sample B), Claude Code's the records'
 * `agentId` (the file is `agent-<agentId>`).
 *
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { detectTranscriptFormat, readTranscriptTail } from '../transcript/index.js';
import type { TranscriptFormat } from '../transcript/index.js';
import { ovSessionId, ovSubagentSessionId } from '../session/ids.js';
import { claudeConfigDir, codebuddyConfigDir } from '../store/paths.js';
import { isRecord } from '../util/json.js';

export type HostName = 'CodeBuddy' | 'Claude Code';

/** One session's transcript file. */
export interface Transcript {
  host: HostName;
  path: string;
  size: number;
  mtimeMs: number;
  /** `dev:ino`: the same file, whatever its path. */
  fileId: string;
  hostSessionId: string;
  /** A sub-agent's file: the agent id its SubagentStop would give (see the header). */
  agentId?: string;
  /** The OpenViking session live capture writes it to. */
  ovSessionId: string;
}

/** What a file's first lines say. */
export interface TranscriptHead {
  format?: TranscriptFormat;
  /** The working folder of the session (its records' `cwd`). */
  cwd?: string;
  /** Claude Code sub-agent records name their agent. */
  agentId?: string;
}

/** Bytes of a transcript read to find its head (the first complete line is always read whole). */
const HEAD_BYTES = 64 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

/** The projects folders of both hosts. */
export function transcriptRoots(env: Env, homeDir: string): Array<{ host: HostName; dir: string }> {
  return [
    { host: 'CodeBuddy', dir: join(codebuddyConfigDir(env, homeDir), 'projects') },
    { host: 'Claude Code', dir: join(claudeConfigDir(env, homeDir), 'projects') },
  ];
}

/**
 * Every session transcript of both hosts, oldest first, in the project
 * folders that may hold `workspace`'s sessions (every folder when it is
 * undefined). Never throws: an unreadable folder is simply not listed.
 */
export function listTranscripts(env: Env, homeDir: string, workspace?: string): Transcript[] {
  const found: Transcript[] = [];
  const hint = workspace === undefined ? undefined : slugOf(workspace);
  for (const { host, dir } of transcriptRoots(env, homeDir)) {
    for (const project of entries(dir)) {
      if (!project.isDirectory()) continue;
      const slug = slugOf(project.name);
      if (hint !== undefined && slug !== hint && !slug.startsWith(`${hint}-`)) continue;
      found.push(...sessionsIn(host, join(dir, project.name)));
    }
  }
  return found.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : 1));
}

/** The working folder and format a transcript's first lines name. Never throws (an unreadable file has none). */
export async function readHead(transcript: Transcript): Promise<TranscriptHead> {
  const read = await readTranscriptTail(transcript.path, undefined, { maxBytes: HEAD_BYTES });
  const head: TranscriptHead = {};
  const format = detectTranscriptFormat(read.records);
  if (format !== undefined) head.format = format;
  for (const record of read.records) {
    if (!isRecord(record)) continue;
    if (head.cwd === undefined && typeof record['cwd'] === 'string' && record['cwd'].startsWith('/'))
      head.cwd = record['cwd'];
    if (head.agentId === undefined && typeof record['agentId'] === 'string' && record['agentId'] !== '')
      head.agentId = record['agentId'];
    if (head.cwd !== undefined && head.agentId !== undefined) break;
  }
  return head;
}

/** The transcript with its sub-agent's id as `head` says (Claude Code's records name it). */
export function withHead(transcript: Transcript, head: TranscriptHead): Transcript {
  if (transcript.agentId === undefined || transcript.host !== 'Claude Code') return transcript;
  const agentId = head.agentId ?? transcript.agentId.replace(/^agent-/, '');
  return { ...transcript, agentId, ovSessionId: ovSubagentSessionId(transcript.hostSessionId, agentId) };
}

/**
 * True when the file's last line has no newline: a write cut short (the
 * host died mid-line). Capture leaves such a line for a next read that
 * never comes in a past session, so the import counts it as skipped.
 */
export async function endsWithCutLine(path: string): Promise<boolean> {
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size === 0) return false;
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      return last[0] !== 0x0a;
    } finally {
      await file.close();
    }
  } catch {
    return false; // gone or unreadable: nothing was cut that the import could tell
  }
}

/** True when `cwd` is `workspace` or a folder inside it. */
export function isWithin(cwd: string, workspace: string): boolean {
  const root = workspace.replace(/\/+$/, '');
  return cwd === root || cwd.startsWith(`${root}/`);
}

/** A main session's file and its sub-agents' files. */
function sessionsIn(host: HostName, projectDir: string): Transcript[] {
  const found: Transcript[] = [];
  for (const entry of entries(projectDir)) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    const hostSessionId = entry.name.slice(0, -'.jsonl'.length);
    const main = transcriptAt(host, join(projectDir, entry.name), hostSessionId, ovSessionId(hostSessionId));
    if (main === undefined) continue;
    found.push(main);
    const agentsDir = join(projectDir, hostSessionId, 'subagents');
    for (const agent of entries(agentsDir)) {
      if (!agent.isFile() || !agent.name.endsWith('.jsonl')) continue;
      const agentId = basename(agent.name, '.jsonl');
      const sub = transcriptAt(
        host,
        join(agentsDir, agent.name),
        hostSessionId,
        ovSubagentSessionId(hostSessionId, agentId),
        agentId,
      );
      if (sub !== undefined) found.push(sub);
    }
  }
  return found;
}

function transcriptAt(
  host: HostName,
  path: string,
  hostSessionId: string,
  ovId: string,
  agentId?: string,
): Transcript | undefined {
  if (ovId === '') return undefined;
  try {
    const stat = statSync(path, { bigint: true });
    if (!stat.isFile()) return undefined;
    return {
      host,
      path,
      size: Number(stat.size),
      mtimeMs: Number(stat.mtimeMs),
      fileId: `${stat.dev}:${stat.ino}`,
      hostSessionId,
      ovSessionId: ovId,
      ...(agentId !== undefined ? { agentId } : {}),
    };
  } catch {
    return undefined; // gone since the listing
  }
}

/** Every separator-like character as `-`, no leading `-`: how both hosts' slugs compare with a folder. */
function slugOf(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '-').replace(/^-+/, '');
}

function entries(dir: string): import('node:fs').Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no such folder: that host kept no sessions here
  }
}
