#!/bin/sh
# The static checks, the type check and the linters (Prettier, ESLint), side by side: each is one busy
# process for most of a minute. Run alone before a commit; the test command runs them beside the
# end-to-end suite (scripts/dev/e2e-and-static.sh).
cd "$(dirname "$0")/../.."
exec sh scripts/dev/held.sh typecheck 'npm run --silent typecheck' lint 'npm run --silent lint'
