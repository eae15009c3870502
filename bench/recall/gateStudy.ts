/**
 * `npm run bench:recall:study`: what a gate on the server's answer could
 * reach (DESIGN D43, "What a gate can reach"). Runs our hook over the whole
 * corpus, as the benchmark does (pluginHook.ts), through a recording proxy
 * in front of the real server, and writes one JSON line per prompt to
 * `bench/.work/gate-study.jsonl`: the prompt, its right URIs, what the hook
 * injected, and the project's candidates as the block's code ranks them
 * (projectScope.ts, rerank.ts: relevance, score, category, words). Then
 * `bench/recall/gate_study.py` (the embedding venv: scikit-learn) fits
 * gates on one split and reports them on the other.
 *
 * A gate can only take hits away, so the question it answers is how many
 * right answers a gate must drop to inject nothing on prompts no memory
 * answers, with features the prompt path has for free.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import buildBeforeTest from '../../tests/support/build-before-test.js';
import { REPO_ROOT } from '../../tests/support/real-server/install.js';
import { readContextSearch } from '../../src/openviking/shapes.js';
import { isMemoryFolder } from '../../src/recall/memoryFolder.js';
import { projectScope } from '../../src/recall/projectScope.js';
import { contentWords, rerank } from '../../src/recall/rerank.js';
import { WORK_ROOT } from './bench.js';
import { loadCorpus, type Prompt } from './corpus/corpus.js';
import { pluginHookSystem } from './pluginHook.js';
import { startRecallStack } from './stack.js';

interface Search {
  query: string;
  answer: unknown;
}

/** A reverse proxy to `target` that keeps each context search's query and answer (the last one wins). */
async function recordingProxy(target: URL): Promise<{ url: string; take(): Search | undefined; close(): void }> {
  let last: Search | undefined;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks);
          if (req.url?.endsWith('/search/search')) {
            const sent = JSON.parse(body.toString()) as { query: string };
            last = { query: sent.query, answer: (JSON.parse(text.toString()) as { result?: unknown }).result };
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      },
    );
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const take = () => {
    const taken = last;
    last = undefined;
    return taken;
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, take, close: () => server.close() };
}

/** The project's candidates as the block's code ranks them (no gate, no cut). */
function rankedCandidates(search: Search, peer: string) {
  const inScope = projectScope(peer);
  const entries = readContextSearch(search.answer).entries.filter((entry) => !isMemoryFolder(entry.uri));
  const items = entries
    .filter((entry) => inScope(entry.uri))
    .map((entry) => ({ uri: entry.uri, text: entry.text ?? '', category: entry.category, score: entry.score }));
  const otherBest = Math.max(...entries.filter((entry) => !inScope(entry.uri)).map((entry) => entry.score ?? 0), 0);
  const ranked = rerank(items, search.query).map(({ item, relevance }) => ({
    uri: item.uri,
    relevance,
    score: item.score,
    category: item.category,
    words: contentWords(item.text),
  }));
  return { ranked, otherBest, queryWords: contentWords(search.query) };
}

async function main(): Promise<void> {
  const corpus = loadCorpus();
  await buildBeforeTest();
  const runDir = join(WORK_ROOT, `gate-study-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const stack = await startRecallStack(corpus, join(runDir, 'stack'));
  const proxy = await recordingProxy(new URL(stack.server.url));
  const system = pluginHookSystem({
    name: 'ours',
    pluginRoot: REPO_ROOT,
    workDir: join(runDir, 'ours'),
    serverUrl: proxy.url,
    user: stack.user,
    projects: corpus.projects,
  });
  const lines: string[] = [];
  const peerOf = (prompt: Prompt) => corpus.projects.find((project) => project.name === prompt.project)!.peer;
  try {
    await system.warmUp(corpus.prompts[0]!.project);
    proxy.take();
    for (const prompt of corpus.prompts) {
      const injection = await system.recall(prompt);
      const search = proxy.take();
      lines.push(
        JSON.stringify({
          id: prompt.id,
          split: prompt.split,
          type: prompt.type,
          prompt: prompt.prompt,
          answers: prompt.answers.map((id) => stack.uriById.get(id)),
          injected: injection.uris,
          searched: search !== undefined,
          ...(search === undefined ? {} : rankedCandidates(search, peerOf(prompt))),
        }),
      );
    }
  } finally {
    await system.dispose();
    proxy.close();
    await stack.stop();
  }
  const out = join(WORK_ROOT, 'gate-study.jsonl');
  writeFileSync(out, `${lines.join('\n')}\n`, { mode: 0o600 });
  process.stdout.write(`${lines.length} prompts: ${out.replace(`${REPO_ROOT}/`, '')}\n`);
}

await main();
