/**
 * The fake provider's chat completions: what the real OpenViking server asks
 * its VLM, answered so each of its pipelines completes (docs/host-facts.md
 * F26 lists the calls 0.5.2 was seen to make):
 * - memory extraction → a memory-SDK program (extraction.ts);
 * - the query planner ("context query planner") → one memory query, the
 *   user's own words, so planned recall searches what a user asked;
 * - a forced tool call (working memory, when an account turns it on) → the
 *   smallest arguments its JSON schema accepts;
 * - anything else (archive summaries, directory overviews) → a short
 *   Markdown summary quoting the input's first words, so an overview is
 *   never empty and never invented.
 * Every answer is a pure function of the request.
 *
 * @module
 */
import { answerExtraction } from './extraction.js';

/** Which of the server's prompts a request is (logged with it). */
export type ChatKind = 'extraction' | 'planner' | 'tool' | 'summary';

export interface ChatAnswer {
  kind: ChatKind;
  message: { role: 'assistant'; content: string | null; tool_calls?: unknown[] };
  finishReason: 'stop' | 'tool_calls';
}

/** The texts of a chat request's messages (a string, or an array of `{type:'text', text}` parts). */
export function messageTexts(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  return messages.map((message) => {
    const { content } = message;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content
      .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
      .join('\n');
  });
}

export function answerChat(body: Record<string, unknown>): ChatAnswer {
  const texts = messageTexts(body);
  const all = texts.join('\n');
  const forced = forcedTool(body);
  if (forced !== undefined) return toolAnswer(forced);
  if (/memory extraction/i.test(texts[0] ?? '')) return text('extraction', answerExtraction(texts).program);
  if (/context query planner/i.test(all)) return text('planner', plannerAnswer(texts));
  return text('summary', summaryOf(all));
}

function text(kind: ChatKind, content: string): ChatAnswer {
  return { kind, message: { role: 'assistant', content }, finishReason: 'stop' };
}

/** The query the planner is asked to plan for: a labelled line if the prompt has one, else the last message. */
function plannerAnswer(texts: readonly string[]): string {
  const all = texts.join('\n');
  const labelled = /(?:current (?:message|query)|user query|query)\s*[:：]\s*(.+)/i.exec(all)?.[1];
  const query = (labelled ?? texts[texts.length - 1] ?? '').trim().slice(0, 500);
  return JSON.stringify({
    reasoning: 'fake provider: the user message as it is',
    queries: [{ query, context_type: 'memory', intent: 'recall', priority: 1 }],
  });
}

function summaryOf(all: string): string {
  const words = (all.match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*/gu) ?? []).slice(0, 24).join(' ');
  return `# Summary\n\n- ${words || 'empty input'}\n`;
}

/** The function a request forces with `tool_choice: {type:'function', function:{name}}`, with its schema. */
function forcedTool(body: Record<string, unknown>): { name: string; parameters: unknown } | undefined {
  const choice = body.tool_choice as { function?: { name?: unknown } } | undefined;
  const name = choice?.function?.name;
  if (typeof name !== 'string') return undefined;
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ function?: { name?: string; parameters?: unknown } }>)
    : [];
  return { name, parameters: tools.find((tool) => tool.function?.name === name)?.function?.parameters };
}

function toolAnswer(tool: { name: string; parameters: unknown }): ChatAnswer {
  const call = {
    id: `call_fake_${tool.name}`,
    type: 'function',
    function: { name: tool.name, arguments: JSON.stringify(minimalInstance(tool.parameters)) },
  };
  return {
    kind: 'tool',
    message: { role: 'assistant', content: null, tool_calls: [call] },
    finishReason: 'tool_calls',
  };
}

/** The smallest value a JSON schema accepts: required properties only, empty strings and arrays. */
export function minimalInstance(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return {};
  const node = schema as { type?: unknown; properties?: Record<string, unknown>; required?: unknown; enum?: unknown };
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  switch (node.type) {
    case 'string':
      return '-';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default: {
      const required = Array.isArray(node.required) ? (node.required as string[]) : [];
      return Object.fromEntries(required.map((key) => [key, minimalInstance(node.properties?.[key])]));
    }
  }
}
