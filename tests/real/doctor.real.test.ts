/**
 * Doctor against a healthy REAL OpenViking server in dev mode, after a
 * captured session, as a user runs it in the workspace (`node
 * scripts/hook.mjs doctor`). It proves every check passes or informs
 * (nothing fails, nothing warns) against 0.5.2: the version and auth mode
 * from its `/health`, the identity it resolves from `OPENVIKING_USER`, its
 * `/mcp` (24 tools, F28), and the server-side commit policy the plugin set
 * on the captured session (`PATCH …/config`, read back by `GET` session).
 * The key-protected server is tests/real/auth.real.test.ts, the stopped one
 * tests/real/outage.real.test.ts.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor, type DoctorCheck } from './support/doctor.js';
import { sharedServers } from './support/servers.js';
import { storedWhen } from './support/stored.js';
import { createRealWorld, devIdentity, type RealWorld } from './support/world.js';

const { dev } = sharedServers();

let world: RealWorld;
let checks: Map<string, DoctorCheck>;
let report: string;

beforeAll(async () => {
  world = createRealWorld({ url: dev.url, identity: devIdentity('doctor') });
  const session = world.session();
  session.turn('Check the deploy script.', 'It looks fine.');
  await session.fire('Stop', session.p.stop('It looks fine.'));
  await storedWhen(dev.url, world.speaker, session.ovId, (s) => s.totalMessages >= 2, 'the turn');
  await world.settle();
  ({ checks, report } = await runDoctor(world));
});

afterAll(async () => {
  await world?.dispose();
});

describe('doctor on a healthy real server', () => {
  it('fails and warns about nothing', () => {
    const bad = [...checks.entries()].filter(([, check]) => check.status === 'FAIL' || check.status === 'WARN');
    expect(bad, report).toEqual([]);
    expect(report).toContain('All checks passed.');
  });

  it("reports the server's version and auth mode, the identity and its /mcp tools", () => {
    expect(checks.get('Server')!.text).toContain('version: 0.5.2, auth mode: dev');
    expect(checks.get('Identity')!.text).toContain(`user: ${world.user}`);
    expect(checks.get('Identity')!.text).toContain('memory APIs: usable');
    expect(checks.get('MCP endpoint')).toMatchObject({ status: 'PASS' });
    // 0.5.2 speaks the revision the plugin offers (F46), so doctor and the proxy run on the newest.
    expect(checks.get('MCP endpoint')!.text).toContain(`${dev.url}/mcp: 24 tools (protocol 2025-11-25)`);
  });

  it('reads back the commit policy the plugin set on the captured session', () => {
    const policy = checks.get('Commit policy')!.text;
    expect(policy, report).toContain(
      "the server commits it by itself at 20000 pending tokens, 200 messages, 1800 s idle (only when the server's idle scanner is on), keeping 0 recent messages",
    );
  });
});
