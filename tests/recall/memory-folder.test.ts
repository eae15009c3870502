/**
 * Recall leaves out memory folders (F32): OpenViking 0.5.2's context face
 * answers a category folder's template index beside the memory it lists;
 * files (whatever dots a peer's name holds) and resource folders stay.
 * The real server's answer: tests/real/recall.real.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { isMemoryFolder } from '../../src/recall/memoryFolder.js';

describe('isMemoryFolder', () => {
  it.each([
    ['viking://user/u/peers/github.com-acme-app/memories/preferences/github.com-acme-app', true],
    ['viking://user/u/memories/preferences/u', true],
    ['viking://user/u/memories/events/2026/12/04/', true],
    ['viking://user/u/memories', true],
    ['viking://user/u/peers/github.com-acme-app/memories/preferences/github.com-acme-app/deploy_rocket.md', false],
    ['viking://user/u/memories/profile.md', false],
    ['viking://user/u/memories/entities/u/deploy.md\u001b]0;pwned\u0007\u202eevil', false],
    ['viking://user/u/memories/entities/u/notes.md-archive', true],
    ['viking://resources/docs/runbook', false],
    ['viking://user/u/skills/kestrel-deploy', false],
  ])('%s → %s', (uri, folder) => {
    expect(isMemoryFolder(uri)).toBe(folder);
  });
});
