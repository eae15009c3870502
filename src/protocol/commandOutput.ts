/**
 * Text the plugin prints into a slash command (the output of a command's
 * inline `!` step: doctor, status, why, the query file of recall) must stay
 * text. CodeBuddy 2.117 renders the expanded command as a nunjucks template
 * AFTER the inline steps ran (DESIGN F20; seen on the real CLI: a server URL
 * holding `{{ 7*7 }}` reached the model as `49`), and that output carries
 * text from the server, from memories and from earlier prompts. A template
 * tag there would run in the CLI (nunjucks expressions reach JavaScript).
 *
 * So every `{` that would open a tag (`{{`, `{%`, `{#`) gets a zero-width
 * space after it: the model reads the same characters, the template engine
 * sees no tag. Hosts that render nothing (Claude Code) show the same text.
 *
 * @module
 */

const TAG_OPENING = /\{(?=[{%#])/g;

/** `text` with no template tag opening left in it. */
export function inertForCommand(text: string): string {
  return text.includes('{') ? text.replace(TAG_OPENING, '{\u200b') : text;
}
