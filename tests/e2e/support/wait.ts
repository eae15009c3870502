/** Moved to tests/support/wait.ts (one copy for every test); kept so imports of this path still resolve. */
export { waitFor, waitForStable, type WaitOptions } from '../../support/wait.js';
