/**
 * The valid name a mistyped one most likely meant (`doctr` → `doctor`,
 * `--sesion` → `--session`, `recalLimit` → `recallLimit`), for every "did
 * you mean" the plugin prints: the command line, settings fields, plugin
 * options.
 *
 * @module
 */

/** Levenshtein distance (insert, delete, replace: 1 each). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The name of `names` closest to `wanted`, compared as `normalize` writes
 * both; undefined when even the closest is more than a few edits away (at
 * most 2, or a quarter of the name's length).
 */
export function nearestName(
  wanted: string,
  names: readonly string[],
  normalize: (name: string) => string = (name) => name,
): string | undefined {
  const target = normalize(wanted);
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(target, normalize(name));
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(target.length / 4)) ? best.name : undefined;
}
