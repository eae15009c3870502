import { describe, expect, it } from 'vitest';
import {
  capText,
  sanitizeMessages,
  sanitizeText,
  sanitizeToolInput,
  stripInjectedBlocks,
  stripPrivateBlocks,
} from '../../src/transcript/privacy.js';
import { redactSecrets } from '../../src/transcript/secrets.js';
import type { DecodedMessage } from '../../src/transcript/types.js';

// Built at run time so no secret-shaped literal sits in the repository.
const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const KEYS = {
  openai: `sk-${repeat('Ab3d', 40)}`,
  openaiProject: `sk-proj-${repeat('Xy9_', 48)}`,
  anthropic: `sk-ant-api03-${repeat('Qw7-', 80)}`,
  awsId: `AKIA${repeat('Z7Q4', 16)}`,
  awsSecret: repeat('wJalrXUtnFEMI/K7MDENG+bPxRfiCY', 40),
  github: `ghp_${repeat('a1B2', 36)}`,
  githubOauth: `gho_${repeat('c3D4', 36)}`,
  githubServer: `ghs_${repeat('e5F6', 36)}`,
  githubPat: `github_pat_${repeat('11ABCDEFG0_', 82)}`,
  slack: `xoxb-${repeat('1234567890-', 40)}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${repeat('dBjftJeZ4CVP', 43)}`,
  bearer: repeat('tok3n.Value_', 40),
  pem: `-----BEGIN RSA PRIVATE KEY-----\n${repeat('MIIEpAIBAAKCAQEA', 64)}\n${repeat('q', 64)}\n-----END RSA PRIVATE KEY-----`,
};

describe('redactSecrets: each kind', () => {
  const cases: Array<[string, string, string]> = [
    ['openai key', `key ${KEYS.openai} end`, 'key [REDACTED:openai-key] end'],
    ['openai project key', `export X=${KEYS.openaiProject}`, 'export X=[REDACTED:openai-key]'],
    ['anthropic key', `"${KEYS.anthropic}"`, '"[REDACTED:anthropic-key]"'],
    ['aws access key id', `id=${KEYS.awsId};`, 'id=[REDACTED:aws-access-key];'],
    ['aws secret', `aws_secret_access_key = ${KEYS.awsSecret}`, 'aws_secret_access_key = [REDACTED:aws-secret-key]'],
    [
      'aws secret in ini quotes',
      `AWS_SECRET_ACCESS_KEY="${KEYS.awsSecret}"`,
      'AWS_SECRET_ACCESS_KEY="[REDACTED:aws-secret-key]"',
    ],
    ['github ghp', `token ${KEYS.github}`, 'token [REDACTED:github-token]'],
    ['github gho', KEYS.githubOauth, '[REDACTED:github-token]'],
    ['github ghs', KEYS.githubServer, '[REDACTED:github-token]'],
    ['github pat', `(${KEYS.githubPat})`, '([REDACTED:github-token])'],
    ['slack', `SLACK=${KEYS.slack}`, 'SLACK=[REDACTED:slack-token]'],
    ['jwt', `cookie: ${KEYS.jwt}`, 'cookie: [REDACTED:jwt]'],
    ['bearer header', `Authorization: Bearer ${KEYS.bearer}`, 'Authorization: Bearer [REDACTED:bearer-token]'],
    ['bearer with a jwt', `authorization: bearer ${KEYS.jwt}`, 'authorization: bearer [REDACTED:jwt]'],
    ['pem block', `before\n${KEYS.pem}\nafter`, 'before\n[REDACTED:private-key]\nafter'],
    ['unterminated pem', `x ${KEYS.pem.slice(0, 80)}`, 'x [REDACTED:private-key]'],
    ['password assignment', 'DB_PASSWORD=hunter2!x', 'DB_PASSWORD=[REDACTED:password]'],
    ['quoted password', 'const password = "correct horse";', 'const password = "[REDACTED:password]";'],
    ['json secret', '{"client_secret": "abc-123-def"}', '{"client_secret": "[REDACTED:secret]"}'],
    ['api_key in a query string', 'GET /v1?api_key=abcd1234&x=1', 'GET /v1?api_key=[REDACTED:api-key]&x=1'],
    ['yaml quoted api key', "apiKey: 'zz-top-secret'", "apiKey: '[REDACTED:api-key]'"],
    [
      'url credentials',
      'git clone https://bob:s3cr3tpw@example.com/r.git',
      'git clone https://bob:[REDACTED:url-password]@example.com/r.git',
    ],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('redacts several secrets on one line and leaves the rest', () => {
    expect(redactSecrets(`a ${KEYS.github} b ${KEYS.openai} c`)).toBe(
      'a [REDACTED:github-token] b [REDACTED:openai-key] c',
    );
  });
});

describe('redactSecrets: no false positives on ordinary code and prose', () => {
  const ordinary = [
    'const skip = 1; const task-123 = "x";',
    'git checkout task-12345678901234567890123',
    'npm i scikit-learn; risk-assessment-for-the-quarterly-review',
    'password: string; secret?: Buffer;',
    'function setPassword(password) { return hash(password); }',
    'if (secretary === "Jane Doe") {}',
    'const token = getToken(); const apiKey = config.apiKey;',
    'Use a bearer token in the Authorization header.',
    'The eyJ prefix marks base64 JSON.',
    'AKIA is the prefix of AWS access key ids.',
    'http://localhost:8080/path and user@example.com',
    'sk-short',
    'PASSWORD=${DB_PASSWORD}',
  ];
  it.each(ordinary)('%s', (input) => {
    expect(redactSecrets(input)).toBe(input);
  });
});

describe('tag block stripping', () => {
  const strippers = { private: stripPrivateBlocks, injected: stripInjectedBlocks };
  it.each([
    ['private', 'inline', 'my pin is <private>1234</private>.', 'my pin is .'],
    ['private', 'case-insensitive, multiline', 'a <PRIVATE>\nline 1\nline 2\n</Private> b', 'a  b'],
    ['private', 'with attributes', 'a <private reason="medical">x</private> b', 'a  b'],
    ['private', 'several', '<private>1</private>keep<private>2</private>', 'keep'],
    ['private', 'nested', 'a <private>x <private>y</private> z</private> b', 'a  b'],
    ['private', 'unclosed drops the rest', 'keep this <private>secret\nmore', 'keep this '],
    ['private', 'stray closer', 'a </private> b', 'a  b'],
    ['private', 'self-closing', 'a <private/> b', 'a  b'],
    ['private', 'not another tag', '<privateer>arr</privateer>', '<privateer>arr</privateer>'],
    [
      'injected',
      'system-reminder with attributes',
      '<system-reminder data-role="hook">ctx</system-reminder>\nhello',
      '\nhello',
    ],
    [
      'injected',
      'our context block, with source',
      '<openviking-context source="startup">\n<user-profile>p</user-profile>\n</openviking-context>ask',
      'ask',
    ],
    ['injected', 'our context block, bare', 'x<openviking-context>\nmem\n</openviking-context>y', 'xy'],
    ['injected', 'relevant-memories', '<relevant-memories>- a</relevant-memories>q', 'q'],
    [
      'injected',
      'nested across kinds',
      '<system-reminder>a<openviking-context>b</openviking-context>c</system-reminder>d',
      'd',
    ],
    ['injected', 'uppercase', '<SYSTEM-REMINDER>x</SYSTEM-REMINDER>y', 'y'],
    ['injected', 'unclosed keeps the text', 'see <system-reminder> tags', 'see  tags'],
    [
      'injected',
      'unclosed with a closed one inside',
      '<system-reminder>keep<openviking-context>drop</openviking-context>',
      'keep',
    ],
    ['injected', 'mentions without tags', 'strip system-reminder blocks', 'strip system-reminder blocks'],
  ] as const)('%s: %s', (kind, _name, input, expected) => {
    expect(strippers[kind](input)).toBe(expected);
  });
});

describe('sanitizeText', () => {
  it('strips, redacts, drops NULs and trims', () => {
    const input = `<system-reminder>r</system-reminder>\n key ${KEYS.openai}\0 <private>p</private>  `;
    expect(sanitizeText(input)).toBe('key [REDACTED:openai-key]');
  });

  it('a secret inside an unclosed <private> is gone with it', () => {
    expect(sanitizeText(`ok <private>${KEYS.github}`)).toBe('ok');
  });
});

describe('capText', () => {
  it('keeps short text and cuts long text with a marker, within the cap', () => {
    expect(capText('short', 10)).toBe('short');
    const capped = capText('x'.repeat(200), 100);
    expect(capped.length).toBeLessThanOrEqual(100);
    expect(capped).toMatch(/^x+\n…\[truncated: 200 chars in total\]$/);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(100);
    const capped = capText(text, 81);
    const kept = capped.slice(0, capped.indexOf('\n…'));
    expect(kept).toBe('😀'.repeat(kept.length / 2));
  });
});

describe('sanitizeToolInput', () => {
  it('sanitises string values deeply and redacts credential-named keys', () => {
    const input = {
      command: `curl -H "Authorization: Bearer ${KEYS.bearer}" https://x`,
      env: {
        PASSWORD: 'hunter2',
        api_token: 'abc',
        githubToken: 'g',
        max_tokens: '4096',
        tokenizer: 'bpe',
        note: 'plain',
      },
      list: [`${KEYS.awsId}`, 3, null, true],
      content: 'before <private>hidden</private> after',
    };
    expect(sanitizeToolInput(input)).toEqual({
      command: 'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://x',
      env: {
        PASSWORD: '[REDACTED:password]',
        api_token: '[REDACTED:token]',
        githubToken: '[REDACTED:token]',
        max_tokens: '4096',
        tokenizer: 'bpe',
        note: 'plain',
      },
      list: ['[REDACTED:aws-access-key]', 3, null, true],
      content: 'before  after',
    });
    expect(sanitizeToolInput(null)).toBeNull();
  });

  it('caps long strings and cuts runaway nesting', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const clean = sanitizeToolInput({ big: 'y'.repeat(5000), deep }, { maxTextChars: 100 }) as Record<string, unknown>;
    expect(String(clean.big).length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(clean)).toContain('[truncated: nested too deep]');
  });
});

describe('sanitizeMessages', () => {
  const msg = (parts: DecodedMessage['parts'], role: DecodedMessage['role'] = 'user'): DecodedMessage => ({
    role,
    parts,
    recordId: 'r@t',
    sourceIds: ['r'],
  });

  it('cleans every part, caps tool output separately, and drops emptied parts and messages', () => {
    const messages = [
      msg([{ type: 'text', text: '<openviking-context>memories</openviking-context>' }]),
      msg([
        { type: 'text', text: '<private>all of it</private>' },
        { type: 'text', text: `use ${KEYS.slack}` },
      ]),
      msg(
        [
          {
            type: 'tool',
            tool_id: 't',
            tool_name: 'Bash',
            tool_input: { command: 'env' },
            tool_output: `GITHUB_TOKEN=${KEYS.github}\n${'z'.repeat(3000)}`,
            tool_status: 'completed',
          },
        ],
        'assistant',
      ),
    ];
    const clean = sanitizeMessages(messages, { maxToolOutputChars: 200, maxTextChars: 1000 });
    expect(clean).toHaveLength(2);
    expect(clean[0]?.parts).toEqual([{ type: 'text', text: 'use [REDACTED:slack-token]' }]);
    const tool = clean[1]?.parts[0];
    expect(tool?.type === 'tool' && tool.tool_output?.startsWith('GITHUB_TOKEN=[REDACTED:github-token]\nzzz')).toBe(
      true,
    );
    expect(tool?.type === 'tool' && (tool.tool_output?.length ?? 0) <= 200).toBe(true);
    expect(clean[1]?.recordId).toBe('r@t');
    expect(messages[1]?.parts).toHaveLength(2); // input untouched
  });
});
