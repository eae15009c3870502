/**
 * `classic.UserPromptSubmit` in the hooks module (D30): the prompt's recall
 * taken over from the hook command where the module may (classic.ts,
 * recall.ts), and the card's turn opened with what was recalled: the
 * module's own items (written beside `next(e)`), else what the hook
 * commands' block holds (the module off, no hand-off this session, or the
 * kind given up), when its mark says it is ours.
 *
 * @module
 */
import { cardOnPrompt } from './card/hooks.js';
import { ourBlocks } from './card/ourBlock.js';
import { recalledInContext, type CardMemory } from './card/turns.js';
import { contextEntries, takeOver } from './classic.js';
import type { ClassicInput, ClassicResult, Engine, Next } from './host.js';
import { moduleIsOn } from './moduleSwitch.js';
import { prepareRecall, promptOf, type ModuleRecall } from './recall.js';

export async function onPrompt(
  $: Engine,
  e: ClassicInput,
  next: Next<ClassicInput, ClassicResult>,
): Promise<ClassicResult> {
  if (!(await moduleIsOn($))) return next(e);
  const input = promptOf(e);
  // The preparation before next(e) (a failure leaves the prompt to the hook command); the search and the card beside it.
  const recall =
    input === undefined
      ? undefined
      : async () => {
          const search = await prepareRecall($, input);
          return async (): Promise<ModuleRecall> => {
            const done = await search();
            await cardOnPrompt($, cardMemories(done));
            return done;
          };
        };
  const { result, ours } = await takeOver($, 'prompt', e, next, recall);
  // Only a block marked as ours counts: the context holds every plugin's hook output (card/ourBlock.ts).
  if (ours === undefined) {
    const context = contextEntries(result);
    await cardOnPrompt($, recalledInContext(context, await ourBlocks($, e, context)));
  }
  return result;
}

function cardMemories(recall: ModuleRecall): CardMemory[] {
  return recall.items.map(({ uri, score }) => (score === undefined ? { uri } : { uri, score }));
}
