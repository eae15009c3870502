/**
 * OpenViking 0.5.2's credential-store tools (F28, DESIGN D39) as captured
 * turns: a `privacy_resolve` call's answer is the stored secret itself and a
 * `privacy_upsert` call's `values` are the secrets it stores, whatever their
 * shape, so a captured call keeps neither (its reference, field names and
 * every other tool's output stay). Any MCP prefix: CodeBuddy's, Claude
 * Code's, the user's own server key.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeMessages } from '../../src/transcript/privacy.js';
import { filterOutboundParams } from '../../src/mcp/outbound.js';
import type { MessagePart, SessionMessage } from '../../src/openviking/types.js';

const SECRET = 'plain-words-no-shape-4711';

function captured(part: MessagePart): MessagePart {
  const message: SessionMessage = { role: 'assistant', parts: [part] };
  return sanitizeMessages([message])[0]!.parts[0]!;
}

describe('captured credential-store calls', () => {
  it.each([
    'mcp__openviking__privacy_resolve',
    'mcp__plugin_openviking_openviking__privacy_resolve',
    'privacy_resolve',
  ])('%s keeps its reference, not the resolved value', (name) => {
    const reference = '{{ov_privacy:alice:viking://~/privacy/credential/github#/values/pat}}';
    const part = captured({
      type: 'tool',
      tool_name: name,
      tool_input: { reference },
      tool_output: JSON.stringify({ reference, value: SECRET }),
    });
    expect(JSON.stringify(part)).not.toContain(SECRET);
    expect(part).toMatchObject({ tool_input: { reference }, tool_output: '[REDACTED:openviking-credential]' });
  });

  it('privacy_upsert keeps its category, target and field names, not the values', () => {
    const part = captured({
      type: 'tool',
      tool_name: 'mcp__openviking__privacy_upsert',
      tool_input: { category: 'skill', target_key: 'weather', values: { endpoint_token: SECRET, region: 'eu' } },
      tool_output: '{"fields":[{"field":"endpoint_token","configured":true}]}',
    });
    expect(JSON.stringify(part)).not.toContain(SECRET);
    expect(part).toMatchObject({ tool_input: { category: 'skill', target_key: 'weather' } });
    const values = (part as unknown as { tool_input: { values: Record<string, string> } }).tool_input.values;
    expect(Object.keys(values)).toEqual(['endpoint_token', 'region']);
    // A credential-named key may carry its own kind; either way a marker, never the value.
    for (const value of Object.values(values)) expect(value).toMatch(/^\[REDACTED:[a-z-]+\]$/);
  });

  it("leaves another tool's output alone", () => {
    const part = captured({ type: 'tool', tool_name: 'mcp__openviking__read', tool_output: SECRET });
    expect(part).toMatchObject({ tool_output: SECRET });
  });
});

describe("add_skill's text through the proxy", () => {
  it('passes the outbound filter like a written file', () => {
    const params = filterOutboundParams('tools/call', {
      name: 'add_skill',
      arguments: { data: `---\nname: s\n---\nUse it.<private>${SECRET}</private>`, skills: [] },
    });
    expect(JSON.stringify(params)).not.toContain(SECRET);
    expect((params!['arguments'] as { data: string }).data).toContain('Use it.');
  });
});
