/**
 * The card under an answer: one summary line with a toggle, and when open a
 * row per recalled memory (★ URI, score) and per lookup (⌕ tool, query, how
 * many URIs it answered). Built with the host's element factory `h` over the
 * surface's own constructors (`$.ui.resolve(e)`), so it draws wherever the
 * host draws (terminal, desktop, …). Plain data in, a tree out.
 *
 * @module
 */
import type { Element, ElementFactory, ElementType } from '../host.js';
import type { CardTurn } from './turns.js';
import { printableLine } from '../../util/printable.js';

/** The hosts' global element factory (JSX compiles to it); never imported or declared at run time. */
declare const h: ElementFactory;

/** The one-line summary of a turn's card. */
export function cardSummary(turn: CardTurn): string {
  return `OpenViking · ${turn.recalled.length} recalled · ${turn.lookups.length} looked up`;
}

/**
 * The card's rows, as text, when it is open. Drawn through the printable
 * filter again: a snapshot restored for `--continue` may come from an
 * earlier version that stored them raw.
 */
export function cardRows(turn: CardTurn): Array<{ key: string; text: string; detail: string }> {
  return [
    ...turn.recalled.map((memory) => ({
      key: `r-${memory.uri}`,
      text: `  ★ ${printableLine(memory.uri)} `,
      detail: typeof memory.score === 'number' ? memory.score.toFixed(2) : '',
    })),
    ...turn.lookups.map((lookup, index) => ({
      key: `l-${index}`,
      text: `  ⌕ ${printableLine(String(lookup.tool))} “${printableLine(String(lookup.query))}” `,
      detail: lookup.isError ? 'failed' : `${Number(lookup.hits)} URIs`,
    })),
  ];
}

/** The card's tree; `onToggle` opens or closes it (a Button press). */
export function cardTree(
  elements: Record<string, ElementType>,
  turn: CardTurn,
  isOpen: boolean,
  onToggle: () => unknown,
): Element {
  const { Box, Text, Button } = elements;
  const rows = isOpen
    ? cardRows(turn).map((row) =>
        h(Text, { key: row.key, wrap: 'truncate-end' }, row.text, h(Text, { dimColor: true }, row.detail)),
      )
    : [];
  return h(
    Box,
    { flexDirection: 'column', marginLeft: 2 },
    h(
      Box,
      { flexDirection: 'row', gap: 1 },
      h(Text, { color: 'cyan' }, cardSummary(turn)),
      h(Button, {
        key: `openviking-card-${turn.n}`,
        label: isOpen ? 'collapse' : 'expand',
        plain: true,
        dimColor: true,
        onPress: onToggle,
      }),
    ),
    ...rows,
  );
}

/** `beneath` (what the host and the plugins under this one drew) with the card under it, in one column (FC16). */
export function withCard(elements: Record<string, ElementType>, beneath: unknown, card: Element): unknown {
  const { Box } = elements;
  return h(Box, { flexDirection: 'column' }, beneath, card);
}
