/**
 * Where the card's data lives: `$.state` for the session (a render that read
 * a value is redrawn when it is written, no invalidate needed) and a
 * snapshot per session in `$.store` (one JSON file per plugin, kept across
 * restarts), so `claude --continue`, which keeps the session id, draws the
 * same cards, open or closed as left. The restored rows are drawn before
 * `session.start` runs; they read empty state, then redraw once `restore`
 * writes it (FC16).
 *
 * The refs are literal `{ plugin, key }` consts: the host reads them off the
 * source (and `claude plugin validate` holds them to types/index.d.ts).
 *
 * @module
 */
import type { Engine } from '../host.js';
import { MAX_SESSIONS, MAX_TURNS, type CardReply, type CardTurn } from './turns.js';

const TURNS = { plugin: 'openviking', key: 'cardTurns' } as const;
const REPLIES = { plugin: 'openviking', key: 'cardReplies' } as const;
const EXPANDED = { plugin: 'openviking', key: 'cardExpanded' } as const;
/** The store's list of sessions with a snapshot, oldest first. */
const SESSIONS_KEY = 'card:sessions';

export interface CardData {
  turns: CardTurn[];
  replies: CardReply[];
  expanded: number[];
}

export async function readTurns($: Engine): Promise<{ value: CardTurn[]; version: number }> {
  const held = await $.state.get<CardTurn[]>(TURNS);
  return { value: held.value ?? [], version: held.version };
}

export async function readReplies($: Engine): Promise<CardReply[]> {
  return (await $.state.get<CardReply[]>(REPLIES)).value ?? [];
}

export async function readExpanded($: Engine): Promise<number[]> {
  return (await $.state.get<number[]>(EXPANDED)).value ?? [];
}

/** Read-modify-write of the turns against the version read: tool calls may finish in parallel. */
export async function editTurns($: Engine, change: (turns: readonly CardTurn[]) => CardTurn[]): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const held = await readTurns($);
    if ((await $.state.set(TURNS, change(held.value).slice(-MAX_TURNS), { ifVersion: held.version })).isSet) return;
  }
}

export async function writeReplies($: Engine, replies: CardReply[]): Promise<void> {
  await $.state.set(REPLIES, replies);
}

export async function writeExpanded($: Engine, expanded: number[]): Promise<void> {
  await $.state.set(EXPANDED, expanded);
}

async function snapshotKey($: Engine): Promise<string | undefined> {
  const id = await $.session.id();
  return id ? `card:${id}` : undefined;
}

/** This session's cards into the store; the newest MAX_SESSIONS sessions are kept. */
export async function saveSnapshot($: Engine): Promise<void> {
  const key = await snapshotKey($);
  if (key === undefined) return;
  const data: CardData = {
    turns: (await readTurns($)).value,
    replies: await readReplies($),
    expanded: await readExpanded($),
  };
  await $.store.set(key, data);
  const listed = await $.store.get(SESSIONS_KEY);
  const sessions = [
    ...(Array.isArray(listed)
      ? listed.filter((entry): entry is string => typeof entry === 'string' && entry !== key)
      : []),
    key,
  ];
  for (const old of sessions.slice(0, -MAX_SESSIONS)) await $.store.delete(old);
  await $.store.set(SESSIONS_KEY, sessions.slice(-MAX_SESSIONS));
}

/** After `--continue`/`--resume` (same session id): the stored cards back into `$.state`; a hot reload kept them already. */
export async function restoreSnapshot($: Engine): Promise<void> {
  if ((await readTurns($)).value.length > 0) return;
  const key = await snapshotKey($);
  const stored = key === undefined ? undefined : await $.store.get(key);
  if (!isCardData(stored)) return;
  await $.state.set(TURNS, stored.turns);
  await $.state.set(REPLIES, stored.replies);
  await $.state.set(EXPANDED, stored.expanded);
}

function isCardData(value: unknown): value is CardData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Partial<CardData>;
  return Array.isArray(data.turns) && Array.isArray(data.replies) && Array.isArray(data.expanded);
}
