/** Moved to tests/support/session-world.ts (the shared sandbox); kept so imports of this path still resolve. */
export * from '../../support/session-world.js';
