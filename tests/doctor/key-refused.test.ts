/**
 * Doctor's cause for a key the server does not know. OpenViking 0.5.2
 * answers `/health` 401 UNAUTHENTICATED "Invalid API key" when a wrong key
 * is sent (and 200 without one: docs/host-facts.md F30), so the failed
 * `/health` itself is the diagnosis: the refused key (masked), where it is
 * configured, and the fix, never "set a key" when one is set. Without a key
 * the old cause stands. The real server's answer: tests/real/auth.real.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { diagnoseHealthFailure } from '../../src/doctor/serverDiagnosis.js';
import { failure } from '../../src/openviking/envelope.js';
import { freshHome } from './support.js';

const refused = failure(401, 'UNAUTHENTICATED', 'Invalid API key');

describe('a 401 on /health', () => {
  it('with a key: names the refused key, where it is set and the fix', () => {
    const env = { OPENVIKING_URL: 'http://127.0.0.1:1933', OPENVIKING_API_KEY: 'uk-wrong-key-4821' };
    const diagnosis = diagnoseHealthFailure(loadPluginConfig({ env, homeDir: freshHome() }), refused, env);
    expect(diagnosis.kind).toBe('key-refused');
    expect(diagnosis.lines[0]).toBe(
      'http://127.0.0.1:1933/health refused the API key ****4821 (HTTP 401 UNAUTHENTICATED: Invalid API key): the server does not know this key',
    );
    expect(diagnosis.lines[1]).toContain('the key is from OPENVIKING_API_KEY in the environment');
    expect(diagnosis.fix).toContain(
      'Replace the key from OPENVIKING_API_KEY in the environment with a current user key',
    );
    expect(JSON.stringify(diagnosis)).not.toContain('uk-wrong-key-4821');
  });

  it('without a key: the server wants one', () => {
    const env = { OPENVIKING_URL: 'http://127.0.0.1:1933' };
    const diagnosis = diagnoseHealthFailure(loadPluginConfig({ env, homeDir: freshHome() }), refused, env);
    expect(diagnosis.kind).toBe('health-refused');
    expect(diagnosis.fix).toContain('Set a user API key');
  });
});
