/**
 * An OpenViking-compatible server for tests and `npm run stand-in-server`:
 * `startOvServer(options)` listens on 127.0.0.1 (port 0 by default) and
 * returns a handle with the URL, fault switches, the request log, session
 * snapshots, seeding, and stop()/start() that take it down and bring it
 * back on the same port.
 *
 * Fidelity target: openviking-api.md (source API, docs/host-facts.md) §1–§4 and §9; the rules
 * it implements are pinned by tests/ov-server/*.test.ts.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { LoggedRequest, OvServerOptions, RequestFilter, SeedSpec, SessionSnapshot } from './types.js';
import { createState, seedState, type ServerState } from './state.js';
import { dispatch } from './dispatch.js';
import { scanIdleSessions } from './autoCommit.js';
import type { Route } from './router.js';
import type { Faults } from './faults.js';
import type { ExtractionControl } from './tasks.js';
import { systemRoutes } from './routes/system.js';
import { fsRoutes } from './routes/fs.js';
import { sessionRoutes } from './routes/sessions.js';
import { searchRoutes } from './routes/search.js';
import { adminRoutes } from './routes/admin.js';

export type {
  AuthMode,
  AuthOptions,
  Identity,
  KeyIdentity,
  LoggedRequest,
  OvServerOptions,
  RequestFilter,
  Role,
  SeedFile,
  SeedSpec,
  SessionSnapshot,
  StoredMessage,
  StoredPart,
  ArchiveRecord,
  CommitRecord,
} from './types.js';
export type { ErrorBurstSpec } from './faults.js';
export type { ExtractionControl, TaskRecord, TaskStatus } from './tasks.js';
export { TOOL_NAMES } from './mcp-tools.js';
export { HOSTILE_CHARACTERS, HOSTILE_TEXT, hostileCopy } from './hostile.js';
export { estimateTokens } from './tokens.js';
export { terms, scoreTerms } from './scoring.js';
export { statusForCode, knownErrorCodes } from './errors.js';

const ROUTES: readonly Route[] = [...systemRoutes, ...adminRoutes, ...fsRoutes, ...sessionRoutes, ...searchRoutes];

export interface OvTestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly faults: Faults;
  /** Commit tasks and memory extraction: hold them pending, make them fail, let them run (tasks.ts). */
  readonly extraction: ExtractionControl;
  /** Logged requests, optionally filtered (copies). */
  requests(filter?: RequestFilter): LoggedRequest[];
  clearRequests(): void;
  /** Polls until `count` matching requests were answered (or faulted). */
  waitForRequests(filter: RequestFilter, count?: number, timeoutMs?: number): Promise<LoggedRequest[]>;
  /** Snapshots of every session (copies). */
  sessions(): SessionSnapshot[];
  session(sessionId: string, who?: { account?: string; user?: string }): SessionSnapshot | undefined;
  /** Adds files (see SeedSpec). */
  seed(spec: SeedSpec): void;
  /** A file's text, or undefined. */
  file(uri: string, account?: string): string | undefined;
  /** Closes the listener and drops every connection; the port stays reserved for start(). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  readonly running: boolean;
  /** stop(), for good. */
  close(): Promise<void>;
  /** The live state, for assertions the helpers do not cover. */
  readonly state: ServerState;
}

export async function startOvServer(options: OvServerOptions = {}): Promise<OvTestServer> {
  const state = createState(options);
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    dispatch(state, ROUTES, req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let port = await listen(server, options.port ?? 0);
  let running = true;
  // The idle scanner of §10, only when asked for (the real server's is off by default).
  const startScanner = (): NodeJS.Timeout | undefined => {
    const scanMs = state.autoCommit.idleScanMs;
    return scanMs === undefined
      ? undefined
      : setInterval(() => scanIdleSessions(state.sessions, state.sessions.all(), state.now()), scanMs).unref();
  };
  let scanner = startScanner();

  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    if (scanner !== undefined) clearInterval(scanner);
    scanner = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get running() {
      return running;
    },
    faults: state.faults,
    extraction: state.sessions.tasks,
    state,
    requests: (filter) => state.log.list(filter),
    clearRequests: () => state.log.clear(),
    waitForRequests: (filter, count, timeoutMs) => state.log.waitFor(filter, count, timeoutMs),
    sessions: () => state.sessions.snapshot(),
    session: (sessionId, who = {}) =>
      state.sessions
        .snapshot()
        .find(
          (s) =>
            s.sessionId === sessionId &&
            (who.account === undefined || s.account === who.account) &&
            (who.user === undefined || s.user === who.user),
        ),
    seed: (spec) => seedState(state, spec),
    file: (uri, account = 'default') => state.vfs.read(account, uri)?.content,
    stop,
    start: async () => {
      if (running) return;
      port = await listen(server, port);
      running = true;
      scanner = startScanner();
    },
    close: stop,
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
