import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/transcript/privacy.js';
import { claudeCodeUserText, codeBuddyUserText } from '../../src/transcript/host-text.js';

// Each input is 1 MB built to make a backtracking regex rescan the rest of the
// line from every position (openers without closers, prefixes without the
// rest of the token, long runs of a token's own alphabet). A quadratic
// pattern needs minutes on these; the linear ones need a few hundred
// milliseconds (83 rules over 1 MB, ~340 ms at load 10). The bound sits between
// the two, far from both: a machine loaded 15 times over still passes a linear
// filter, and no quadratic one comes near it.
const LIMIT_MS = 5_000;
const SIZE = 1_000_000;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const ADVERSARIAL: Record<string, string> = {
  'token alphabet run': fill('a'),
  'sk- prefixes': fill('sk-'),
  'sk- with short tails': fill('sk-abc '),
  'jwt heads without dots': fill('eyJ-'),
  'jwt segments': fill('eyJaaaaaaaaa.'),
  'pem headers without end': fill('-----BEGIN RSA PRIVATE KEY-----\n'),
  'pem header then a long run': `-----BEGIN ${fill('A')}`,
  '<private> openers': fill('<private>'),
  '<private openers without >': fill('<private '),
  'injected openers': fill('<system-reminder data-x="1">'),
  'stray closers': fill('</openviking-context>'),
  'interleaved tags': fill('<system-reminder><openviking-context></system-reminder>'),
  'credential words': fill('password'),
  'credential words and =': fill('api_key='),
  'open quotes': fill('secret = "'),
  'bearer without token': fill('Bearer \t'),
  'url scheme prefixes': fill('git+ssh://'),
  'url user without @': fill('https://user:'),
  'github prefixes': fill('ghp_'),
  'aws prefixes': fill('AKIA'),
  'aws secret names': fill('aws_secret_access_key='),
  'angle brackets': fill('<'),
  // The rule set of issue 14 item 10 (the token rules, secretNames.ts).
  'yaml names on one long line': fill('password: x, '),
  'header names without values': fill('X-API-Key: '),
  'glued credential words': fill('PGPASSWORD'),
  'names ending in a credential word': fill(
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaatoken=',
  ),
  'url passwords with slashes, no @': fill('redis://:a/b/c'),
  'mysql arguments without -p': fill('mysql -u root '),
  'cli flags without values': fill('--password --'),
  'curl -u without colon': fill(' -u user'),
  '40-character base64 runs near aws': `aws ${fill('Ab1/'.repeat(10) + ' ')}`,
  'sk-proj prefixes': fill('sk-proj-'),
  'private key block openers (PGP)': fill('-----BEGIN PGP PRIVATE KEY BLOCK-----\n'),
  whitespace: fill(' \n\t'),
  // The rules of issue 20 item 7.
  'netrc machines without password': fill('machine h login u '),
  'netrc machine lines': fill('machine h\n login u\n account a\n'),
  'redis-cli arguments without -a': fill('redis-cli -h x '),
  '_PAT names without values': fill('A_PAT'),
  'cookie headers without pairs': fill('Cookie: '),
  'cookie pairs': fill('Cookie: a=b; '),
  'sas signatures': fill('&sig=AAAA'),
  'ppk headers': fill('Private-Lines: 1\n'),
  'ppk header then one long base64 line': `Private-Lines: 9\n${fill('A')}`,
  'base64 PEM heads': fill('LS0tLS1CRUdJTiB'),
  'pgpass-like lines': fill('h:5432:d:u:\n'),
  'pgpass fields without end': `h:5432:d:u:${fill('x')}`,
  'legacy vault heads': fill('s.AAAA'),
  'mailchimp heads': fill('0123456789abcdef0123456789abcdef-us'),
  'docker auth keys': fill('"auth": "'),
  'url passwords with digits and slashes': fill('postgres://u:1/2'),
  'type annotations': fill('password: Optional[str] = '),
  // The rules of issue 41 item 4 (gitleaks v8.30.1 formats).
  'bedrock long-lived heads': fill('ABSK'),
  'bedrock short-lived heads': fill(`bedrock-api-key-${Buffer.from('bedrock.amazonaws.com').toString('base64')}`),
  'gitlab routable heads': fill('glpat-aaaaaaaaaaaaaaaaaaaa.'),
  'gitlab runner registration heads': fill('GR1348941'),
  'gitlab session cookies without value': fill('_gitlab_session='),
  'sourcegraph heads': fill('sgp_0123456789abcdef_'),
  'artifactory heads': fill('AKCp'),
  'openshift heads': fill('sha256~'),
  'cloudflare origin CA heads': fill('v1.0-0123456789abcdef01234567-'),
  'teams webhook paths': fill('.webhook.office.com/webhookb2/'),
  'new relic heads': fill('NRII-'),
  'fly.io heads': fill('fm2_'),
  'planetscale heads': fill('pscale_tkn_'),
  // Added beside the one-pass keyword gate (issue 41 item 4, second pass).
  'grafana legacy heads': fill('eyJrIjoi'),
  'maxmind heads without suffix': fill('abcdef_0123456789012345678901234567_'),
  'harness heads': fill('pat.aaaaaaaaaaaaaaaaaaaaaa.'),
  'dynatrace heads': fill('dt0c01.aaaaaaaaaaaaaaaaaaaaaaaa.'),
};

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

describe('linear time on adversarial 1 MB lines', () => {
  it.each(Object.keys(ADVERSARIAL))('sanitizeText: %s', (name) => {
    const input = ADVERSARIAL[name] ?? '';
    expect(input.length).toBeGreaterThanOrEqual(SIZE);
    expect(timed(() => sanitizeText(input))).toBeLessThan(LIMIT_MS);
  });

  it.each(['<user_query>', '<previous_user_message><user_query>', '<cb_summary ', '</user_query>'])(
    'codeBuddyUserText: %s',
    (unit) => {
      expect(timed(() => codeBuddyUserText(fill(unit)))).toBeLessThan(LIMIT_MS);
    },
  );

  it.each(['<command-name>', '<command-args>', '<local-command-stdout>'])('claudeCodeUserText: %s', (unit) => {
    expect(timed(() => claudeCodeUserText(fill(unit)))).toBeLessThan(LIMIT_MS);
  });

  it('still redacts correctly at that size', () => {
    const key = `sk-${'k'.repeat(40)}`;
    const result = sanitizeText(`${fill('x ')} ${key} <private>${fill('y')}`);
    expect(result.endsWith('[REDACTED:openai-key]')).toBe(true);
    expect(result).not.toContain('yy');
  });
});
