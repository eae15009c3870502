/**
 * The few statistics the benchmarks report: medians of interleaved samples
 * and the ratio of a path to the bare-node baseline measured beside it.
 * A median of interleaved pairs is used because the machine is shared and
 * noisy: drift (another job starting) hits both columns alike, and one slow
 * outlier cannot move a median.
 *
 * @module
 */

/** Median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Samples of a path and of the baseline, taken alternately. */
export interface PairedSamples {
  bareMs: number[];
  pathMs: number[];
}

/**
 * Runs `bare` then `path`, `pairs` times, in strict alternation (bare, path,
 * bare, path, …), so both see the same machine load.
 */
export async function interleave(
  pairs: number,
  bare: () => Promise<number>,
  path: () => Promise<number>,
): Promise<PairedSamples> {
  const samples: PairedSamples = { bareMs: [], pathMs: [] };
  for (let pair = 0; pair < pairs; pair++) {
    samples.bareMs.push(await bare());
    samples.pathMs.push(await path());
  }
  return samples;
}

/** Median of the path over median of the baseline. */
export function ratioOf(samples: PairedSamples): number {
  return median(samples.pathMs) / median(samples.bareMs);
}
