/**
 * The memory card's hooks. Each one passes its event on (`next(e)`) and
 * returns what it got, whatever happens in the card's own work: a card that
 * fails to record or draw is logged to the host's debug log and the answer
 * shows without it. With the module switched off, each only passes on.
 *
 * - `session.start`: the stored cards back after `--continue`; the command.
 * - `command.run` `/openviking-card expand|collapse`: every card at once.
 * - `classic.UserPromptSubmit` (prompt.ts calls `cardOnPrompt`): a turn opens
 *   with what was recalled for it: the module's own recall, else the block
 *   the hook commands injected (read with recall/block.ts).
 * - `tool.call` on the plugin's MCP tools: the agent's lookups.
 * - `session.append` (an answer's text row): which turn that row answers.
 * - `turn.complete`: the snapshot for `--continue`.
 * - `ui.render` of an AssistantMessage: the card under the turn's last text row.
 *
 * @module
 */
import type {
  CommandRunInput,
  CommandRunResult,
  Engine,
  Next,
  RenderInput,
  RenderResult,
  SessionAppendInput,
  SessionAppendResult,
  SessionStartInput,
  ToolCallInput,
  ToolCallResult,
} from '../host.js';
import { debugNote } from '../debugNote.js';
import { toolArguments } from '../guard.js';
import { moduleIsOn } from '../moduleSwitch.js';
import {
  editTurns,
  readExpanded,
  readReplies,
  readTurns,
  restoreSnapshot,
  saveSnapshot,
  writeExpanded,
  writeReplies,
} from './persist.js';
import {
  addLookup,
  addReply,
  hasCard,
  lookupOf,
  lookupToolOf,
  openTurn,
  setExpanded,
  turnOfReply,
  type CardMemory,
} from './turns.js';
import { cardTree, withCard } from './view.js';

/** The command that opens or closes every card. */
export const CARD_COMMAND = 'openviking-card';
const USAGE = `Usage: /${CARD_COMMAND} expand | collapse`;

/** A card's failure, in the host's debug log only (a transcript notice would itself be a row). */
async function noteFailure($: Engine, where: string, error: unknown): Promise<void> {
  debugNote($, `memory card: ${where} failed: ${error instanceof Error ? error.message : String(error)}`);
}

export async function cardOnSessionStart(
  $: Engine,
  e: SessionStartInput,
  next: Next<SessionStartInput, unknown>,
): Promise<unknown> {
  if (await moduleIsOn($)) {
    try {
      await restoreSnapshot($);
      await $.command.register({
        name: CARD_COMMAND,
        description: 'Expand or collapse the OpenViking memory cards',
        argumentHint: 'expand | collapse',
      });
    } catch (error) {
      await noteFailure($, 'session start', error);
    }
  }
  return next(e);
}

export async function cardOnCommand(
  $: Engine,
  e: CommandRunInput,
  next: Next<CommandRunInput, CommandRunResult>,
): Promise<CommandRunResult> {
  if (!(await moduleIsOn($))) return next(e);
  const verb = e.args.trim().toLowerCase();
  if (verb !== 'expand' && verb !== 'collapse') return { text: USAGE, isTextDisplayOnly: true };
  await toggle($, 'all', verb === 'expand');
  return { text: `OpenViking cards ${verb === 'expand' ? 'expanded' : 'collapsed'}.`, isTextDisplayOnly: true };
}

/** A prompt's turn opens with the memories recalled for it (the module's own recall, or the block the hook commands injected). */
export async function cardOnPrompt($: Engine, recalled: readonly CardMemory[]): Promise<void> {
  try {
    await editTurns($, (turns) => openTurn(turns, recalled));
  } catch (error) {
    await noteFailure($, 'prompt', error);
  }
}

export async function cardOnLookup(
  $: Engine,
  e: ToolCallInput,
  next: Next<ToolCallInput, ToolCallResult>,
): Promise<ToolCallResult> {
  const ran = await next(e);
  const tool = lookupToolOf(String(e.tool));
  if (tool === undefined || !(await moduleIsOn($))) return ran;
  try {
    const lookup = lookupOf(tool, toolArguments(e), ran as { text?: unknown; isError?: unknown; deny?: unknown });
    await editTurns($, (turns) => addLookup(turns, lookup));
  } catch (error) {
    await noteFailure($, 'lookup', error);
  }
  return ran;
}

export async function cardOnAppend(
  $: Engine,
  e: SessionAppendInput,
  next: Next<SessionAppendInput, SessionAppendResult>,
): Promise<SessionAppendResult> {
  const stored = await next(e);
  // Never log from here for a notice row: a log line may itself be one (FC16).
  if (
    e.door !== 'response' ||
    e.agentId !== undefined ||
    stored?.deny !== undefined ||
    typeof stored?.uuid !== 'string'
  )
    return stored;
  if (!(stored.message?.content ?? []).some((block) => (block as { type?: unknown } | null)?.type === 'text'))
    return stored;
  try {
    if (!(await moduleIsOn($))) return stored;
    const turns = (await readTurns($)).value;
    if (turns.length > 0) await writeReplies($, addReply(await readReplies($), turns, stored.uuid));
  } catch {
    // the card of this row is not drawn
  }
  return stored;
}

export async function cardOnTurnComplete($: Engine, e: unknown, next: Next<unknown, unknown>): Promise<unknown> {
  const done = await next(e);
  try {
    if (await moduleIsOn($)) await saveSnapshot($);
  } catch (error) {
    await noteFailure($, 'snapshot', error);
  }
  return done;
}

/** Reading `$.state` while drawing subscribes the row: a later write (a toggle, a restore) redraws it. */
export async function cardOnRender(
  $: Engine,
  e: RenderInput,
  next: Next<RenderInput, RenderResult>,
): Promise<RenderResult> {
  if (!(await moduleIsOn($))) return next(e);
  let drawn: { elements: ReturnType<Engine['ui']['resolve']>; card: ReturnType<typeof cardTree> } | undefined;
  try {
    const turn = turnOfReply((await readTurns($)).value, await readReplies($), e.requestId);
    if (turn !== undefined && hasCard(turn)) {
      const isOpen = (await readExpanded($)).includes(turn.n);
      const elements = $.ui.resolve(e);
      drawn = { elements, card: cardTree(elements, turn, isOpen, () => toggle($, turn.n, !isOpen)) };
    }
  } catch (error) {
    await noteFailure($, 'render', error);
  }
  const beneath = await next(e);
  return drawn === undefined ? beneath : withCard(drawn.elements, beneath, drawn.card);
}

/** Opens or closes one card or all of them, and keeps the snapshot in step. */
async function toggle($: Engine, which: number | 'all', isOpen: boolean): Promise<void> {
  const turns = (await readTurns($)).value;
  await writeExpanded($, setExpanded(await readExpanded($), turns, which, isOpen));
  await saveSnapshot($);
}
