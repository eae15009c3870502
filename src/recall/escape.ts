/**
 * Makes recalled and stored text safe to place inside our context block.
 *
 * Memories are written by earlier sessions, i.e. by text the model or a web
 * page produced; a memory containing `</openviking-context>` could close our
 * block early and have the rest read as the host's own words, and one
 * containing `<openviking-context …>` could forge a block that capture then
 * strips (losing the user's text). The host itself wraps hook context in
 * `<system-reminder>`, so that tag is neutralised too. Only the opening `<`
 * of those tag names changes (to `&lt;`): the text stays readable.
 *
 * @module
 */

/** Tag names recalled text may never open or close. */
const PROTECTED_TAG = /<(\s*\/?\s*)(openviking-context|memory|user-profile|available-memories|session-archive|archive-overview|system-reminder)(?=[\s/>]|$)/gi;

/** Text content: the protected tags' `<` becomes `&lt;`. */
export function escapeBlockText(text: string): string {
  return text.includes('<') ? text.replace(PROTECTED_TAG, '&lt;$1$2') : text;
}

/** An attribute value: `&`, `"`, `<`, `>` as entities, newlines as spaces. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\n]+/g, ' ');
}
