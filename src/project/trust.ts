/**
 * The user's approvals of workspace files that name a project's peer
 * (DESIGN D32, issue 29 item 1), the way direnv approves a repository's
 * `.envrc`: a peer that a committed `.openviking/config.json` (or a tracked
 * `config.local.json`) names, and that differs from the one this workspace
 * would have without it, is used only once the user ran
 * `node scripts/hook.mjs trust` (or `/openviking:trust`) there. An approval
 * is for one workspace root (its real path) and one file's content (the
 * SHA-256 of its parsed JSON): a changed file asks again.
 *
 * Kept in `<data dir>/trust.json` (0600, written whole and atomically), at
 * most MAX_APPROVALS, newest kept; read with the small-file reader (a few
 * hundred bytes: one read, only in a workspace whose file names a peer of
 * its own). Never throws.
 *
 * @module
 */
import { join } from 'node:path';
import { writeFileAtomicSync } from '../store/atomic.js';
import { sha256Hex } from '../store/sha256.js';
import { readSmallFile } from '../store/smallFile.js';
import { isRecord, parseJson, type JsonRecord } from '../util/json.js';

export interface Approval {
  /** The workspace root, real path. */
  root: string;
  /** The file's name in `.openviking/` (`config.json`, `config.local.json`). */
  file: string;
  /** `contentDigest` of what the file held when it was approved. */
  digest: string;
  /** The peer it named then (`(none)` for `false`), for doctor. */
  peer: string;
  at: number;
}

const MAX_APPROVALS = 500;
const MAX_TRUST_BYTES = 256 * 1024;

export function trustFile(dataDir: string): string {
  return join(dataDir, 'trust.json');
}

/** What a file holds, as an approval names it: the SHA-256 of its parsed JSON (whitespace changes nothing; any value does). */
export function contentDigest(parsed: JsonRecord): string {
  return sha256Hex(JSON.stringify(parsed));
}

/** The approvals kept, oldest first; none when the file is missing or unusable. */
export function readApprovals(dataDir: string): Approval[] {
  const value = parseJson(readSmallFile(trustFile(dataDir), MAX_TRUST_BYTES).text ?? '');
  const listed = isRecord(value) && Array.isArray(value['approvals']) ? value['approvals'] : [];
  return listed.filter(isApproval);
}

/** Whether `approvals` hold this root's `file` with this content. */
export function isApproved(approvals: readonly Approval[], root: string, file: string, digest: string): boolean {
  return approvals.some((approval) => approval.root === root && approval.file === file && approval.digest === digest);
}

/** Keeps `added` (each replacing an earlier approval of its root and file); false when it could not be written. */
export function approve(dataDir: string, added: readonly Approval[]): boolean {
  const replaced = (approval: Approval) =>
    added.some((next) => next.root === approval.root && next.file === approval.file);
  return save(dataDir, [...readApprovals(dataDir).filter((approval) => !replaced(approval)), ...added]);
}

/** Drops every approval of `root`; how many there were (-1 when the file could not be written). */
export function revoke(dataDir: string, root: string): number {
  const approvals = readApprovals(dataDir);
  const kept = approvals.filter((approval) => approval.root !== root);
  if (kept.length === approvals.length) return 0;
  return save(dataDir, kept) ? approvals.length - kept.length : -1;
}

function save(dataDir: string, approvals: readonly Approval[]): boolean {
  try {
    writeFileAtomicSync(
      trustFile(dataDir),
      `${JSON.stringify({ version: 1, approvals: approvals.slice(-MAX_APPROVALS) }, null, 2)}\n`,
    );
    return true;
  } catch {
    return false;
  }
}

function isApproval(value: unknown): value is Approval {
  return (
    isRecord(value) &&
    typeof value['root'] === 'string' &&
    typeof value['file'] === 'string' &&
    typeof value['digest'] === 'string' &&
    typeof value['peer'] === 'string' &&
    typeof value['at'] === 'number'
  );
}
