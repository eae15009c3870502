/**
 * The OpenViking side of the e2e world: engineer B's test server started with
 * a small seeded memory (a profile, a preference, and a memory one prompt will
 * recall), plus read helpers that turn its stored sessions into what the
 * scenarios assert on — which texts landed in which session, how often, in
 * which order.
 *
 * @module
 */
import {
  startOvServer,
  type OvServerOptions,
  type OvTestServer,
  type SessionSnapshot,
  type StoredMessage,
} from '../../support/ov-server/index.js';

export type OvServer = OvTestServer;

/** Unique strings planted in the seed, so a hit in a model request cannot be a coincidence. */
export const SEED = {
  profileMarker: 'PROFILE-MARKER-ADA-LOVELACE',
  preferenceMarker: 'PREFERENCE-MARKER-TABS',
  recallMarker: 'RECALL-MARKER-KESTREL-7',
  profileUri: 'viking://user/default/memories/profile.md',
  recallUri: 'viking://user/default/memories/entities/default/kestrel-deploy.md',
  /** A prompt that should recall the kestrel memory (shares its rare words). */
  recallPrompt: 'How do I deploy the kestrel staging cluster with helm?',
} as const;

const SEED_FILES = {
  'memories/profile.md': `# Profile\n\nThe user is Ada (${SEED.profileMarker}). Works on compilers in TypeScript.\n`,
  'memories/preferences/default/indentation.md': {
    content: `Prefers tabs over spaces in Go code (${SEED.preferenceMarker}).`,
    abstract: 'Indentation preference: tabs in Go',
  },
  'memories/entities/default/kestrel-deploy.md': {
    content: `The kestrel staging cluster is deployed with helm upgrade --install from deploy/kestrel (${SEED.recallMarker}).`,
    abstract: 'How the kestrel staging cluster is deployed with helm',
  },
};

/** Starts the test server in dev mode (no auth; user `default`) with the seed above; `options` add to it (e.g. `extractOnCommit`). */
export async function startSeededOpenViking(options: Omit<OvServerOptions, 'seed'> = {}): Promise<OvServer> {
  return startOvServer({ ...options, seed: { files: SEED_FILES } });
}

/** Text of one stored message: its parts' texts and tool fields, joined. */
export function messageText(message: StoredMessage): string {
  return message.parts
    .map((part) => {
      if (part.type === 'text') return String(part.text ?? '');
      return JSON.stringify(part);
    })
    .join('\n');
}

/** Every session whose id contains `hostSessionId` (main and sub-agent sessions of one CLI session). */
export function sessionsOf(server: OvServer, hostSessionId: string): SessionSnapshot[] {
  return server.sessions().filter((session) => session.sessionId.includes(hostSessionId));
}

/** The session the plugin uses for the main agent: the shortest id containing the host session id. */
export function mainSessionOf(server: OvServer, hostSessionId: string): SessionSnapshot | undefined {
  return sessionsOf(server, hostSessionId).sort((a, b) => a.sessionId.length - b.sessionId.length)[0];
}

/** How many stored messages (archived ones included) of `session` with `role` contain `needle`. */
export function countMessages(session: SessionSnapshot | undefined, role: string, needle: string): number {
  if (!session) return 0;
  return session.allMessages.filter((message) => message.role === role && messageText(message).includes(needle)).length;
}

/** Compact view of all sessions, for failure messages: id → ["role: text…"]. */
export function describeSessions(server: OvServer): Record<string, string[]> {
  const view: Record<string, string[]> = {};
  for (const session of server.sessions()) {
    view[session.sessionId] = session.allMessages.map(
      (message) => `${message.role}: ${messageText(message).slice(0, 160)}`,
    );
  }
  return view;
}

/** How often `role` said `text` in the sessions of `hostSessionId` other than its main one (sub-agents' sessions). */
export function countOutsideMain(server: OvServer, hostSessionId: string, role: string, text: string): number {
  const mainId = mainSessionOf(server, hostSessionId)?.sessionId;
  return sessionsOf(server, hostSessionId)
    .filter((session) => session.sessionId !== mainId)
    .reduce((sum, session) => sum + countMessages(session, role, text), 0);
}
