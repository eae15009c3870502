/**
 * The UTF-8 length of a string, without `Buffer` (the hooks module's worker
 * has none, FC8): what `Buffer.byteLength(text)` answers, an unpaired
 * surrogate counting as the three bytes of U+FFFD as there.
 *
 * @module
 */

/** Bytes `text` takes in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      index + 1 < text.length &&
      (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
