/**
 * The big user of issue 22 item 3: a 40 KB profile and 120 listed
 * preference files (the start block was ~15 KB, past Claude Code's 10,000
 * code units per hook answer), as a seed for the test server. Its first and
 * last lines carry markers, so a test can tell that a cut block kept both.
 *
 * @module
 */
import type { SeedSpec } from './ov-server/index.js';

export const BIG_PROFILE_FIRST = 'BIG-PROFILE-FIRST-LINE-ORCA';
export const BIG_PROFILE_LAST = 'BIG-PROFILE-LAST-LINE-NARWHAL';
export const BIG_PREFERENCE_COUNT = 120;

/** ~40 KB: a heading line, 400 lines of ~100 characters, a last line. */
export function bigProfileText(): string {
  const body = Array.from(
    { length: 400 },
    (_, n) =>
      `- fact ${String(n).padStart(3, '0')}: the user keeps notes on compilers, build systems and the tools they prefer here.`,
  );
  return [`# Profile of Ada (${BIG_PROFILE_FIRST})`, ...body, `Last line of the profile (${BIG_PROFILE_LAST}).`].join(
    '\n',
  );
}

/** The seed: the profile and `preferences` (default 120) preference files (the server lists files without their abstracts). */
export function bigMemorySeed(preferences = BIG_PREFERENCE_COUNT): SeedSpec {
  const files: SeedSpec['files'] = { 'memories/profile.md': bigProfileText() };
  for (let n = 0; n < preferences; n++) {
    const name = `memories/preferences/default/topic-${String(n).padStart(3, '0')}.md`;
    files[name] = {
      content: `Preference ${n}: prefers small focused commits for topic ${n}.`,
      abstract: `Preference ${n}: small focused commits, reviewed the same day, for topic ${n}`,
    };
  }
  return { files };
}
