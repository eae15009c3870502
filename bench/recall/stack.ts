/**
 * The server side of the recall benchmark: the real embedding model
 * (embedEndpoint.ts), the real OpenViking server using it for every vector
 * (its VLM the suite's fake provider), and the corpus loaded as one user's
 * memories, each project's under its peer (corpus/corpus.ts `memoryUri`;
 * the memory's text is the file, its title is for people only).
 *
 * Memories are WRITTEN DIRECTLY (`POST /api/v1/content/write`, `mode:
 * create`, `wait: true`), not extracted from sessions: 0.5.2 indexes a
 * memory written that way through the same memory updater the extraction's
 * writes go through (`MemoryUpdater._vectorize_memories`: the file's text is
 * embedded, the category folder's overview refreshed), so recall sees what
 * it would see after extraction; the URIs are the corpus's own, so answers
 * are named exactly; and 150 memories load in seconds instead of 150
 * commits' extraction runs. Extraction's own quality (what a model decides
 * to keep) is not what this measures, and the fake provider could only echo
 * the corpus back (D43). `wait: true` answers once the vector is indexed;
 * a search for every memory's own text then confirms it is findable.
 *
 * @module
 */
import { join } from 'node:path';
import { startRealServer, type RealServer } from '../../tests/support/real-server/index.js';
import { memoryUri, type Corpus } from './corpus/corpus.js';
import { startEmbedEndpoint, type EmbedProcess } from './embedEndpoint.js';

export interface RecallStack {
  server: RealServer;
  embed: EmbedProcess;
  user: string;
  /** memory id → URI, and back. */
  uriById: Map<string, string>;
  idByUri: Map<string, string>;
  loadMs: number;
  stop(): Promise<void>;
}

export function devHeaders(user: string, peer?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-openviking-account': 'default',
    'x-openviking-user': user,
    ...(peer !== undefined ? { 'x-openviking-actor-peer': peer } : {}),
  };
}

async function post(url: string, user: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: devHeaders(user),
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/** Starts the model and the server and loads `corpus`; `workDir` holds the endpoint's port file and log. */
export async function startRecallStack(corpus: Corpus, workDir: string): Promise<RecallStack> {
  const embed = await startEmbedEndpoint(join(workDir, 'embed'));
  let server: RealServer | undefined;
  try {
    server = await startRealServer({ name: 'recall-bench', embedding: embed.endpoint, readyTimeoutMs: 180_000 });
    const started = Date.now();
    const uriById = new Map(
      corpus.memories.map((memory) => [memory.id, memoryUri(memory, corpus.user, corpus.projects)]),
    );
    await loadMemories(server.url, corpus, uriById);
    const loadMs = Date.now() - started;
    const running = server;
    return {
      server,
      embed,
      user: corpus.user,
      uriById,
      idByUri: new Map([...uriById].map(([id, uri]) => [uri, id])),
      loadMs,
      stop: async () => {
        await running.stop();
        await embed.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    await embed.stop();
    throw error;
  }
}

/** Writes every memory (a few at a time: the server serialises per folder anyway), then checks each is findable. */
async function loadMemories(url: string, corpus: Corpus, uriById: Map<string, string>): Promise<void> {
  const queue = [...corpus.memories];
  const write = async (): Promise<void> => {
    for (let memory = queue.shift(); memory !== undefined; memory = queue.shift()) {
      const uri = uriById.get(memory.id)!;
      const written = await post(url, corpus.user, '/api/v1/content/write', {
        uri,
        content: memory.text,
        mode: 'create',
        wait: true,
      });
      if (written.status !== 200 || written.body?.result?.vector_status !== 'complete')
        throw new Error(`writing ${uri} answered ${written.status}: ${JSON.stringify(written.body).slice(0, 400)}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, write));
  const missing: string[] = [];
  for (const memory of corpus.memories) {
    const uri = uriById.get(memory.id)!;
    const folder = uri.slice(0, uri.lastIndexOf('/'));
    const found = await post(url, corpus.user, '/api/v1/search/find', {
      query: memory.text,
      target_uri: folder,
      limit: 50,
    });
    const uris = ((found.body?.result?.memories ?? []) as Array<{ uri: string }>).map((item) => item.uri);
    if (!uris.includes(uri)) missing.push(uri);
  }
  if (missing.length > 0) throw new Error(`not findable after loading: ${missing.join(', ')}`);
}
