/**
 * A count with its noun, in the number the count needs: `1 problem`,
 * `2 problems`, `1 memory`, `3 memories`. For every line a person reads.
 *
 * @module
 */

/** `count` and `one`, or `many` (default: `one` + "s") when the count is not 1. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
