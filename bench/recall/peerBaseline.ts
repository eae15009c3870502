/**
 * Baseline (b): the recall strategy of OpenViking's own Claude Code plugin,
 * re-implemented here from its published source (no code of it is copied):
 * `examples/claude-code-memory-plugin` 0.4.4 (`.claude-plugin/plugin.json`)
 * at volcengine/OpenViking 6e944cc (2026-08-22), files
 * `scripts/auto-recall.mjs` (the UserPromptSubmit hook), `scripts/config.mjs`
 * (defaults) and `scripts/shared/recall-core.mjs` (generated from
 * `examples/memory-plugin-shared/lib`: the context face, its body and block).
 *
 * What it does per prompt, with its defaults:
 * - query: the prompt, trimmed; nothing of earlier turns; skipped below 3
 *   characters (`minQueryLength`);
 * - `GET /health` first; no answer → no recall;
 * - `POST /api/v1/search/search` with `{query, mode: "context", purpose:
 *   "coding", score_threshold: 0.35}` plus `session_id` and `dedup_turns: 5`
 *   (the session id derived from the host's); no `quotas` and no
 *   `max_tokens` unless configured (the server's coding preset decides);
 *   `peer_scope` only when set to `actor` (default `all`: not sent, the
 *   server's default sweep); the project's peer as `X-OpenViking-Actor-Peer`;
 * - the block: the server's `rendered` text as it is, inside
 *   `<openviking-context>` and one line naming the MCP tools; nothing
 *   filtered on the client (memory folders and other projects' memories the
 *   server answers are injected too); `""` when the server's rewrite said
 *   `no_relevant`;
 * - its fallbacks (`/search/recall`, then two raw finds ranked on the
 *   client) run only on a server without the context face: 0.5.2 has it.
 * Its compression of the block (`recallCompress: auto`: a digest by the host
 * CLI's small model, or the server's `rewrite`) needs a language model; the
 * benchmark's VLM is the fake provider, whose digest would be its canned
 * summary, so compression is off here (`recallCompress: off`), as a user
 * without a model for it gets.
 *
 * It runs in this process (no hook process of its own), so its time per
 * prompt has no process start-up in it.
 *
 * @module
 */
import { ovSessionId } from '../../src/session/ids.js';
import { randomUUID } from 'node:crypto';
import type { Project, Prompt } from './corpus/corpus.js';
import { urisInBlock, type Injection, type RecallSystem } from './pluginHook.js';
import { devHeaders } from './stack.js';

const MIN_QUERY_LENGTH = 3;
const SCORE_THRESHOLD = 0.35;
const DEDUP_TURNS = 5;

export function peerPluginSystem(serverUrl: string, user: string, projects: readonly Project[]): RecallSystem {
  const peerOf = new Map(projects.map((project) => [project.name, project.peer]));
  const recall = async (prompt: Prompt): Promise<Injection> => {
    const started = performance.now();
    const done = (text: string, problem?: string): Injection => ({
      uris: urisInBlock(text),
      chars: text.length,
      ms: performance.now() - started,
      ...(problem !== undefined ? { problem } : {}),
    });
    const query = prompt.prompt.trim();
    if (query.length < MIN_QUERY_LENGTH) return done('');
    const headers = devHeaders(user, peerOf.get(prompt.project));
    const health = await fetch(`${serverUrl}/health`, { headers }).catch(() => undefined);
    if (!health?.ok) return done('', 'health check failed');
    await health.arrayBuffer();
    const body = {
      query,
      mode: 'context',
      purpose: 'coding',
      score_threshold: SCORE_THRESHOLD,
      session_id: ovSessionId(randomUUID()),
      dedup_turns: DEDUP_TURNS,
    };
    const response = await fetch(`${serverUrl}/api/v1/search/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      result?: { rendered?: unknown; stats?: { rewrite?: unknown } };
    };
    if (!response.ok) return done('', `search answered ${response.status}`);
    if (String(answer.result?.stats?.rewrite ?? '').toLowerCase() === 'no_relevant') return done('');
    const rendered = String(answer.result?.rendered ?? '').trim();
    if (rendered === '') return done('');
    return done(
      [
        '<openviking-context>',
        'Relevant memory from OpenViking. Use the search/read MCP tools to expand URIs.',
        rendered,
        '</openviking-context>',
      ].join('\n'),
    );
  };
  return {
    name: 'openviking-claude-code-0.4.4',
    warmUp: async () => undefined,
    recall,
    dispose: async () => undefined,
  };
}
