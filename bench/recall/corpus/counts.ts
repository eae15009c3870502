/**
 * Prints the corpus's counts as the Markdown tables README.md carries between
 * its `counts` markers (`npx tsx bench/recall/corpus/counts.ts`); the corpus
 * test fails while the README's copy differs, so paste after every corpus edit.
 *
 * @module
 */
import { countTables, loadCorpus } from './corpus.js';

console.log(countTables(loadCorpus()));
