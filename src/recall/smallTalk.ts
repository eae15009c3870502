/**
 * A prompt that only acknowledges or greets asks nothing of memory (DESIGN
 * D43): "thanks, looks good", "ok do it", "cool, merge it", "lol ok",
 * "hmm". Its subject, if it has one, is the exchange before it, and the
 * prompt that started that exchange was recalled for already; a search for
 * the acknowledgement (with the exchange folded in by followUp.ts) only
 * brings the same memories again, or near ones, into a turn that needs none.
 * On the recall benchmark every such prompt got a block (no memory answers
 * any of them).
 *
 * The rule, on the prompt as typed (no network): it opens with an
 * acknowledgement or greeting, asks nothing (no `?`, no question word), and
 * what follows the acknowledgements is at most `MAX_REST_WORDS` words, at
 * most one of them a word with a meaning of its own (not a pronoun or a
 * function word): "merge it", "that fixed it", "for the help". So "ok and
 * how do I get it out to customers", "ok, run the integration tests" and
 * "good morning! let's pick up where we left off" are still recalled for;
 * so is "fix it", which does not open with an acknowledgement. English
 * only: any other language is recalled for as before. Pure.
 *
 * @module
 */

/** Words after the acknowledgement(s) a small-talk prompt may have. */
export const MAX_REST_WORDS = 4;

/** Acknowledgements and greetings, as the prompt's first words (longest first within an alternation). */
const ACKNOWLEDGEMENT =
  /^(?:thank you|thanks|thx|ty|okay|ok|kk|k|cool|great|nice|perfect|awesome|excellent|sounds good|looks good|lgtm|got it|sure|yes|yep|yeah|yup|alright|all right|fine|lol|haha|heh|hmm+|huh|wow|good morning|good afternoon|good evening|morning|hi|hello|hey)(?![\p{L}\p{N}])/u;

const QUESTION_WORD = /\b(?:how|what|which|why|when|where|who|whom|whose)\b/;

/** Pronouns and function words: they refer or join, they name no subject. */
const EMPTY_WORDS = new Set(
  (
    'a an the it its this that these those them they he she him her we us our you your i me my mine so then now ' +
    'and or but for to of on in at with by from up do does did done go just please let lets let’s be is are was ' +
    'were been all much very really too also again more well there here one ones'
  ).split(' '),
);

/** True when `prompt` only acknowledges or greets (see the module comment). */
export function isSmallTalk(prompt: string): boolean {
  let text = prompt.trim().toLowerCase();
  if (text === '' || text.includes('?') || QUESTION_WORD.test(text)) return false;
  if (!ACKNOWLEDGEMENT.test(text)) return false;
  // Strip every acknowledgement, wherever it stands ("sounds good, thanks for the help").
  for (let changed = true; changed;) {
    changed = false;
    text = text.replace(/^[^\p{L}\p{N}]+/u, '');
    const match = ACKNOWLEDGEMENT.exec(text);
    if (match !== null) {
      text = text.slice(match[0].length);
      changed = true;
    }
  }
  const rest = text.split(/[^\p{L}\p{N}’']+/u).filter((word) => word !== '');
  if (rest.length > MAX_REST_WORDS) return false;
  return rest.filter((word) => !EMPTY_WORDS.has(word) && !ACKNOWLEDGEMENT.test(word)).length <= 1;
}
