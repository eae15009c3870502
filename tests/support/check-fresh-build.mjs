// CI's freshness gate: the committed bundles under scripts/ and servers/, the
// hooks module hooks/register.mjs and THIRD_PARTY_NOTICES.md must be exactly
// what `npm run build` makes from src/. Run right after a build.
import { execFileSync } from 'node:child_process';

const status = execFileSync(
  'git',
  [
    'status',
    '--porcelain',
    '--untracked-files=all',
    '--',
    'scripts',
    'servers',
    'hooks/register.mjs',
    'THIRD_PARTY_NOTICES.md',
  ],
  {
    encoding: 'utf8',
  },
);
if (status.trim() !== '') {
  console.error('The committed bundles differ from a fresh `npm run build`:\n' + status);
  console.error(
    'Rebuild (`npm run build`) and commit scripts/, servers/, hooks/register.mjs and THIRD_PARTY_NOTICES.md with the source change.',
  );
  process.exit(1);
}
console.log('bundles fresh: scripts/, servers/, hooks/register.mjs and THIRD_PARTY_NOTICES.md match a rebuild');
