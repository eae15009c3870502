/**
 * Read-outs over what the model received that several scenarios need: our
 * `<openviking-context …>` blocks in a user message, and the host session id
 * a model call belongs to.
 *
 * @module
 */
import type { ModelCall } from './chat-types.js';
import { lastUserText } from './chat-types.js';

/** Every `<openviking-context …>…</openviking-context>` block in `text`, in order. */
export function openvikingBlocks(text: string): string[] {
  return [...text.matchAll(/<openviking-context\b[^>]*>[\s\S]*?<\/openviking-context>/g)].map((match) => match[0]);
}

/** The blocks in the newest user message of `call`. */
export function blocksInPrompt(call: ModelCall | undefined): string[] {
  return call ? openvikingBlocks(lastUserText(call)) : [];
}

/** The CodeBuddy session id of a model call (`x-conversation-id`). */
export function hostSessionIdOf(call: ModelCall | undefined): string {
  return call?.headers['x-conversation-id'] ?? '';
}
