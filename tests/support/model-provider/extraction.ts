/**
 * The fake provider's memory extraction, for OpenViking 0.5.2's extraction
 * agent ("You are a memory extraction and maintenance agent…"), which wants
 * a program in its restricted Python memory SDK, e.g.
 *
 *     sdk.create_preferences(user="""alice""", topic="""deploy_rocket""", content="""- …""")
 *     sdk.commit()
 *
 * (docs/host-facts.md F26; 0.4's JSON reply is gone). The rule is small and
 * deterministic, so a test can say what a session will teach: every
 * sentence of a USER message that starts with "remember" ("Remember: …",
 * "remember that …") becomes one preference memory holding that sentence,
 * its topic the first three content words. A message spoken by a peer the
 * prompt offers ("Available peer_id values in this session: …"; the plugin
 * puts the project's peer on every message, D24) is written as that peer's
 * memory, as the agent is told to attribute facts to their speaker. Nothing
 * to remember: `sdk.commit()` alone, the agent's "no changes".
 *
 * @module
 */

/** One message of the "## Conversation History" block: `[index][role][speaker]: text`. */
export interface ConversationMessage {
  role: string;
  speaker: string;
  text: string;
}

/** One memory the fake will write. */
export interface ExtractedMemory {
  user: string;
  topic: string;
  content: string;
  peerId?: string;
}

const MESSAGE_HEAD = /^\[(\d+)\]\[([^\]]*)\]\[([^\]]*)\]: ?(.*)$/;
const HISTORY_END = /^After exploring, analyze the conversation/;
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/;
const REMEMBER = /^remember(?:\s+that)?\s*[:,-]?\s+(.*?)[.!?]*$/i;
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'for',
  'i',
  'in',
  'is',
  'it',
  'my',
  'of',
  'on',
  'our',
  'the',
  'to',
  'we',
  'with',
]);

/** The conversation the server put in front of the agent. */
export function conversationOf(texts: readonly string[]): ConversationMessage[] {
  const history = texts.find((text) => text.includes('## Conversation History'));
  if (history === undefined) return [];
  const messages: ConversationMessage[] = [];
  for (const line of history.split('\n')) {
    if (HISTORY_END.test(line)) break;
    const head = MESSAGE_HEAD.exec(line);
    if (head !== null) messages.push({ role: head[2]!, speaker: head[3]!, text: head[4]! });
    else if (messages.length > 0) messages[messages.length - 1]!.text += `\n${line}`;
  }
  return messages;
}

/** The peer ids the prompt allows, from "Available peer_id values in this session: a, b". */
export function offeredPeers(systemPrompt: string): Set<string> {
  const offered = /Available peer_id values in this session: ([^\n]+)/.exec(systemPrompt)?.[1] ?? '';
  return new Set(
    offered
      .split(/[,\s]+/)
      .map((peer) => peer.trim())
      .filter((peer) => peer !== ''),
  );
}

/** A topic in the schema's form: lowercase words joined by `_`, at most three. */
export function topicOf(content: string): string {
  const words = (content.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => !STOP_WORDS.has(word));
  return words.slice(0, 3).join('_') || 'note';
}

/** What the rule remembers from `messages` (user messages only, in order). */
export function memoriesOf(messages: readonly ConversationMessage[], peers: ReadonlySet<string>): ExtractedMemory[] {
  const memories: ExtractedMemory[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const sentence of message.text.split(SENTENCE_BREAK)) {
      const content = REMEMBER.exec(sentence.trim())?.[1]?.trim();
      if (!content) continue;
      const peerId = peers.has(message.speaker) ? message.speaker : undefined;
      memories.push({
        user: message.speaker || 'user',
        topic: topicOf(content),
        content,
        ...(peerId ? { peerId } : {}),
      });
    }
  }
  return memories;
}

/** A Python triple-quoted literal holding `text` (every quote and backslash escaped). */
export function tripleQuoted(text: string): string {
  return `"""${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"""`;
}

/** The SDK program writing `memories` (when the prompt offers `create_preferences`). */
export function extractionProgram(systemPrompt: string, memories: readonly ExtractedMemory[]): string {
  const canWrite = systemPrompt.includes('sdk.create_preferences(');
  const calls = canWrite
    ? memories.map((memory) => {
        const fields = [
          ...(memory.peerId !== undefined ? [`peer_id=${tripleQuoted(memory.peerId)}`] : []),
          `user=${tripleQuoted(memory.user)}`,
          `topic=${tripleQuoted(memory.topic)}`,
          `content=${tripleQuoted(`- ${memory.content}`)}`,
        ];
        return `sdk.create_preferences(${fields.join(', ')})`;
      })
    : [];
  return [...calls, 'sdk.commit()'].join('\n');
}

/** The whole answer to an extraction request, from its message texts (the system prompt first). */
export function answerExtraction(texts: readonly string[]): { program: string; memories: ExtractedMemory[] } {
  const systemPrompt = texts[0] ?? '';
  const memories = memoriesOf(conversationOf(texts), offeredPeers(systemPrompt));
  return { program: extractionProgram(systemPrompt, memories), memories };
}
