/**
 * The fake provider's embedding: a hashed bag of words, so the real
 * OpenViking server can index and search without a model. Deterministic
 * (the same text always gives the same vector), and two texts that share
 * words have a high cosine, so a memory is found by a prompt that names its
 * words; every component carries a small floor, so no cosine is ever zero
 * (the server sanitises NaN scores to 0 and we never want to rely on that).
 *
 * Words are lowercased `\w+` runs, with a plural `s` dropped so "deploys"
 * meets "deploy"; each word adds 1 to its FNV-1a bucket. Not a language
 * model: the recall-quality benchmark serves a real one (bench/recall).
 *
 * @module
 */

/** The dimension the suite configures (`embedding.dense.dimension`); the server fixes it at first start. */
export const HASHED_DIMENSION = 384;

const FLOOR = 0.01;

/** The words of `text` as the embedding counts them. */
export function embeddingWords(text: string): string[] {
  const words = text.toLowerCase().match(/\w+/g) ?? [];
  return words.map((word) =>
    word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
  );
}

function bucket(word: string, dimension: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % dimension;
}

/** A unit vector of `dimension` floats for `text`. */
export function hashedEmbedding(text: string, dimension = HASHED_DIMENSION): number[] {
  const vector = new Array<number>(dimension).fill(FLOOR);
  for (const word of embeddingWords(text)) vector[bucket(word, dimension)]! += 1;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** The OpenAI SDK asks for base64 unless told otherwise: little-endian float32. */
export function encodeEmbedding(vector: readonly number[], format: unknown): number[] | string {
  if (format !== 'base64') return [...vector];
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
