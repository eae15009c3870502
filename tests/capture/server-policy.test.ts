/**
 * The server's commit policy as the plugin gives it (src/capture/serverPolicy.ts)
 * against what OpenViking 0.5.2 takes (docs/host-facts.md F41): an idle
 * timeout of 0 or at least 300 s, so a shorter knob is sent as 300; and a
 * 400 about a value is not "this server has no policy", which only a
 * missing route or an unknown field says.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { policyFor, refusedAsUnknown, SERVER_MIN_IDLE_SECONDS } from '../../src/capture/serverPolicy.js';
import { resolveSettings } from '../../src/config/settings.js';

/** No file is read: the knob comes from the environment. */
const home = '/home/tester';

const idleOf = (seconds: string): number | undefined =>
  policyFor(resolveSettings({ env: { OPENVIKING_SERVER_COMMIT_IDLE_SECONDS: seconds }, homeDir: home }).settings)
    ?.idle_timeout_seconds;

describe('the commit policy the server gets', () => {
  it('sends an idle timeout under 300 s as 300, and 0 and longer ones as they are', () => {
    expect(SERVER_MIN_IDLE_SECONDS).toBe(300);
    expect(idleOf('2')).toBe(300);
    expect(idleOf('299')).toBe(300);
    expect(idleOf('0')).toBe(0);
    expect(idleOf('300')).toBe(300);
    expect(idleOf('1800')).toBe(1800);
  });

  it('reads an unknown field or a missing route as "no policy", a refused value not', () => {
    expect(refusedAsUnknown(404, 'Not Found')).toBe(true);
    expect(refusedAsUnknown(405, 'Method Not Allowed')).toBe(true);
    expect(
      refusedAsUnknown(422, 'Invalid request parameters: body.auto_commit_policy: Extra inputs are not permitted'),
    ).toBe(true);
    // 0.5.2's answer to idle_timeout_seconds: 60
    expect(
      refusedAsUnknown(
        400,
        'Invalid request parameters: body.auto_commit_policy.idle_timeout_seconds: Value error, auto_commit_policy.idle_timeout_seconds must be 0 or at least 300',
      ),
    ).toBe(false);
    expect(
      refusedAsUnknown(400, 'Invalid request parameters: body.auto_commit_policy: Input should be a valid integer'),
    ).toBe(false);
  });
});
