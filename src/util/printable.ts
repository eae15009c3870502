/**
 * The one filter for text shown to a person that came from a server, a
 * memory, a model or a record (issue 29 item 2): doctor, `why`,
 * `recall-preview`, the status line, the session-start lines, the memory
 * card. A terminal acts on what it is sent: OSC 52 writes the clipboard,
 * OSC 0 the window title, CSI sequences move the cursor or clear the
 * screen, a bare CR overwrites the line, and bidi controls reorder what a
 * reader sees (a URI that reads as another). So every C0 control but tab and
 * newline goes (CR and ESC included), DEL, every C1 control (U+0080–U+009F:
 * 8-bit CSI and OSC), the bidi controls (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069) and the Unicode tag characters
 * (U+E0000–U+E007F, text no reader sees). Text the model reads keeps its
 * own, wider rule (recall/escape.ts `dropInvisible`), unchanged.
 *
 * @module
 */

/** What `printable` drops. */
const UNPRINTABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/g;
/** Text that cannot hold one: printable ASCII, tab and newline only (the common case costs one test). */
const PLAIN = /^[\t\n\u0020-\u007e]*$/;

/** `text` without the characters that would drive a terminal or reorder it; tabs and newlines stay. */
export function printable(text: string): string {
  return PLAIN.test(text) ? text : text.replace(UNPRINTABLE, '');
}

/** `printable`, on one line: each run of tabs and newlines becomes one space (a field that must not start a line of its own). */
export function printableLine(text: string): string {
  return printable(text).replace(/[\t\n]+/g, ' ');
}
