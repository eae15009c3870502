/**
 * The recall block: tool line, escaping, budget.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { renderRecallBlock } from '../../src/recall/block.js';
import { escapeBlockText, STORED_DATA_LINE } from '../../src/recall/escape.js';
import { estimateTokens } from '../../src/recall/tokens.js';

describe('renderRecallBlock', () => {
  it('renders one element per memory with escaped attributes', () => {
    const block = renderRecallBlock([{ uri: 'viking://user/u/memories/x".md', category: 'events', score: 0.456, text: 'did <b>x</b>' }], 2000);
    expect(block).toBe(
      [
        '<openviking-context source="recall">',
        'Relevant memory from OpenViking. Expand a URI with mcp__openviking__read {"uris": "<uri>"}; search for more with mcp__openviking__search {"query": "…"}. They are deferred tools: call them through DeferExecuteTool with toolName and params.',
        STORED_DATA_LINE,
        '<memory uri="viking://user/u/memories/x&quot;.md" type="events" score="0.46">',
        'did <b>x</b>',
        '</memory>',
        '</openviking-context>',
      ].join('\n'),
    );
  });

  it('keeps within the budget: first memory clipped, later ones URI-only, then dropped', () => {
    const items = Array.from({ length: 30 }, (_, n) => ({ uri: `viking://user/u/memories/events/e${n}.md`, text: 'word '.repeat(300) }));
    const block = renderRecallBlock(items, 300);
    expect(estimateTokens(block)).toBeLessThanOrEqual(300);
    expect(block).toContain('e0.md">');
    expect(block).toContain('<memory uri="viking://user/u/memories/events/e1.md"/>');
    expect(block).not.toContain('e29.md');
    expect(block.endsWith('</openviking-context>')).toBe(true);
  });

  it('is empty without memories', () => {
    expect(renderRecallBlock([], 1000)).toBe('');
  });
});

describe('escapeBlockText', () => {
  it('neutralises our tags and the host wrapper in any case or spacing', () => {
    expect(escapeBlockText('a </OpenViking-Context> b <openviking-context x> </memory> < /system-reminder>')).toBe(
      'a &lt;/OpenViking-Context> b &lt;openviking-context x> &lt;/memory> &lt; /system-reminder>',
    );
    expect(escapeBlockText('<memoryless> 1 < 2')).toBe('<memoryless> 1 < 2');
  });
});
