/**
 * The 15 MCP tools of contract §4.1 (find, search, read, list, tree,
 * remember, write, edit, add_resource, list_watches, cancel_watch, grep,
 * glob, forget, health) with their documented parameters and defaults,
 * implemented over the same store as the REST routes. Tools answer text,
 * with the text again as `structuredContent.result` (not `read`, not an error),
 * as 0.5.2 does; an OpenViking error is a tool error whose text is
 * `<CODE>: <message>` (`read` of a missing file too), except
 * `add_resource`, which returns the error text (docs/host-facts.md F43).
 * 0.5.2's other nine tools (users, groups, ACLs, privacy, download,
 * add_skill) are not here: nothing of the plugin names them.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Identity } from './types.js';
import type { ServerState } from './state.js';
import { ensureSession } from './state.js';
import { OvError, invalidArgument, notFound } from './errors.js';
import { resolveRequestUri, uriSegments } from './uri.js';
import { editText, forgetUri, globFiles, grepFiles, listEntries, readText, treeText, writeText } from './fsops.js';
import { listSearch } from './routes/search.js';
import { runContextSearch, DEFAULT_MAX_TOKENS } from './context-face.js';
import { prepareMessage } from './messages.js';

type ToolText = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: { result: string };
  isError: boolean;
};

/** A tool's answer: its text, again as `structuredContent.result` unless it is an error. */
const text = (value: string, isError = false): ToolText => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? {} : { structuredContent: { result: value } }),
  isError,
});

/** `read`'s answer: the text alone (0.5.2's `read` has no structured output). */
const plain = (value: string): ToolText => ({ content: [{ type: 'text', text: value }], isError: false });

/** A tool's handler with OpenViking errors turned into tool errors (`<CODE>: <message>`). */
function guarded(handler: (...args: never[]) => ToolText): (...args: never[]) => ToolText {
  return (...args) => {
    try {
      return handler(...args);
    } catch (error) {
      if (error instanceof OvError) return text(`${error.code}: ${error.message}`, true);
      throw error;
    }
  };
}
const stringOrList = z.union([z.string(), z.array(z.string())]);
const INDEXING =
  'Indexing: semantic=skipped, vector=queued, overview=queued. Search indexes update in the background; pass wait=true if a follow-up search must see this change immediately.';

/** Names in registration order; tests compare against this list. */
export const TOOL_NAMES = [
  'find',
  'search',
  'read',
  'list',
  'tree',
  'remember',
  'write',
  'edit',
  'add_resource',
  'list_watches',
  'cancel_watch',
  'grep',
  'glob',
  'forget',
  'health',
] as const;

function formatHits(result: Record<string, unknown>): string {
  const items = (['memories', 'resources', 'skills'] as const).flatMap(
    (bucket) => result[bucket] as Array<Record<string, unknown>>,
  );
  items.sort((a, b) => Number(b['score']) - Number(a['score']));
  if (items.length === 0) return 'No matching context found.';
  const lines = items.map(
    (item) =>
      `- [${String(item['context_type'])} ${Math.round(Number(item['score']) * 100)}%] ${String(item['uri'])}\n    ${String(item['abstract'])}`,
  );
  return `Found ${items.length} item(s):\n\n${lines.join('\n')}\n\nUse the read tool to expand a URI.`;
}

export function registerTools(server: McpServer, state: ServerState, identity: Identity): void {
  const register = ((name: string, config: never, handler: (...args: never[]) => ToolText) =>
    server.registerTool(name, config, guarded(handler) as never)) as unknown as McpServer['registerTool'];
  const uri = (raw: string): string => resolveRequestUri(raw, identity);

  register(
    'find',
    {
      description:
        'Fast semantic search over memories, resources and skills (no session). Returns scored URIs with abstracts.',
      inputSchema: {
        query: z.string(),
        target_uri: z.string().default(''),
        limit: z.number().int().default(10),
        min_score: z.number().default(0.35),
        level: z.array(z.number().int()).nullable().optional(),
        context_type: stringOrList.nullable().optional(),
      },
    },
    (args) =>
      text(
        formatHits(
          listSearch(state, identity, {
            query: args.query,
            target_uri: args.target_uri,
            limit: args.limit,
            score_threshold: args.min_score,
            context_type: args.context_type ?? null,
          }),
        ),
      ),
  );

  register(
    'search',
    {
      description:
        'Deep search. mode="list" returns scored URIs; mode="context" returns a token-budgeted context block (digest or rendered memories).',
      inputSchema: {
        query: z.string(),
        target_uri: z.string().default(''),
        session_id: z.string().nullable().optional(),
        limit: z.number().int().default(10),
        min_score: z.number().nullable().optional(),
        level: z.array(z.number().int()).nullable().optional(),
        context_type: stringOrList.nullable().optional(),
        mode: z.enum(['list', 'context']).default('list'),
        query_expansion: z.enum(['off', 'auto']).default('auto'),
        max_tokens: z.number().int().default(DEFAULT_MAX_TOKENS),
        quotas: z.record(z.string(), z.number().int()).nullable().optional(),
        purpose: z.enum(['chat', 'coding']).nullable().optional(),
        detail: z.enum(['auto', 'abstract', 'overview', 'full']).default('auto'),
        detail_by_category: z.record(z.string(), z.string()).nullable().optional(),
        dedup_turns: z.number().int().default(0),
        exclude_uris: z.array(z.string()).nullable().optional(),
        peer_scope: z.enum(['actor', 'all']).default('all'),
        other_peer_penalty: z.number().nullable().optional(),
        other_peer_penalties: z.record(z.string(), z.number()).nullable().optional(),
        rewrite: z.enum(['off', 'auto']).default('off'),
        rewrite_max_bullets: z.number().int().default(6),
      },
    },
    (args) => {
      if (args.detail !== 'auto' && args.detail_by_category)
        throw invalidArgument('Pass detail or detail_by_category, not both');
      if (args.other_peer_penalty !== null && args.other_peer_penalty !== undefined && args.other_peer_penalties)
        throw invalidArgument('Pass other_peer_penalty or other_peer_penalties, not both');
      if (args.mode === 'list') {
        return text(
          formatHits(
            listSearch(state, identity, {
              query: args.query,
              target_uri: args.target_uri,
              limit: args.limit,
              score_threshold: args.min_score ?? 0.35,
              context_type: args.context_type ?? null,
            }),
          ),
        );
      }
      if (args.target_uri !== '') throw invalidArgument("target_uri is not supported when mode='context'");
      const result = runContextSearch(state, identity, {
        query: args.query,
        sessionId: args.session_id ?? null,
        queryExpansion: args.query_expansion,
        maxTokens: args.max_tokens,
        quotas: args.quotas ?? null,
        purpose: args.purpose ?? null,
        limit: args.limit,
        detail: args.detail_by_category ?? args.detail,
        dedupTurns: args.dedup_turns,
        excludeUris: (args.exclude_uris ?? []).map(uri),
        scoreThreshold: args.min_score ?? undefined,
        rewrite: args.rewrite === 'auto' ? 'auto' : false,
        rewriteMaxBullets: args.rewrite_max_bullets,
        ignored: [],
        peerScope: args.peer_scope,
        otherPeerPenalty: args.other_peer_penalties ?? args.other_peer_penalty,
      });
      return text(String(result['digest'] || result['rendered'] || 'No matching context found.'));
    },
  );

  register(
    'read',
    {
      description:
        'Read the full text of one or more viking:// URIs. Several URIs are separated by "=== <uri> ===" headers.',
      inputSchema: { uris: stringOrList },
    },
    (args) => {
      const uris = [args.uris].flat();
      if (uris.length === 1) return plain(readText(state, identity, uri(uris[0] ?? '')));
      const read = (raw: string): string => {
        try {
          return readText(state, identity, uri(raw));
        } catch (error) {
          // one file of a batch: its error in its place
          return error instanceof OvError ? `${error.code}: ${error.message}` : String(error);
        }
      };
      return plain(uris.map((raw) => `=== ${raw} ===\n${read(raw)}`).join('\n\n'));
    },
  );

  register(
    'list',
    {
      description: 'List a viking:// directory: "[dir] name" / "[file] name" lines, or full URIs when recursive.',
      inputSchema: { uri: z.string().default('viking://'), recursive: z.boolean().default(false) },
    },
    (args) => {
      const entries = listEntries(state, identity, uri(args.uri), {
        recursive: args.recursive,
        output: 'original',
        absLimit: 256,
        nodeLimit: 1000,
        simple: false,
        showAllHidden: false,
      }) as Array<Record<string, unknown>>;
      if (entries.length === 0) return text('(empty)');
      return text(
        entries
          .map(
            (entry) =>
              `${entry['isDir'] === true ? '[dir]' : '[file]'} ${String(args.recursive ? entry['uri'] : entry['name'])}`,
          )
          .join('\n'),
      );
    },
  );

  register(
    'tree',
    {
      description: 'Show an indented tree of a viking:// directory.',
      inputSchema: {
        uri: z.string().default('viking://'),
        level_limit: z.number().int().default(3),
        node_limit: z.number().int().default(1000),
        include_abstract: z.boolean().default(false),
      },
    },
    (args) => text(treeText(state, identity, uri(args.uri), args.level_limit, args.node_limit, args.include_abstract)),
  );

  register(
    'remember',
    {
      description: 'Store messages as long-term memory: creates a session, adds the messages and commits it.',
      inputSchema: { messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })).min(1) },
    },
    (args) => {
      const sessionId = `mcp-store-${randomBytes(6).toString('hex')}`;
      const nowIso = new Date(state.now()).toISOString();
      const prepared = args.messages.flatMap((message) => prepareMessage(message, identity, nowIso));
      const record = ensureSession(state, identity, sessionId);
      state.sessions.append(record, prepared);
      const commit = state.sessions.commit(record, { keep_recent_count: 0 });
      return text(
        `Submitted ${prepared.length} message(s) for memory extraction (session ${sessionId}, task_id=${String(commit['task_id'])}). Extraction runs in the background and decides which memories to create or update.`,
      );
    },
  );

  register(
    'write',
    {
      description:
        'Write a file under viking://resources/, viking://user/<you>/ or viking://agent/. mode: replace (creates if missing), append, create.',
      inputSchema: {
        uri: z.string(),
        content: z.string(),
        mode: z.enum(['replace', 'append', 'create']).default('replace'),
        wait: z.boolean().default(false),
        timeout: z.number().nullable().optional(),
      },
    },
    (args) => {
      const written = writeText(state, identity, uri(args.uri), args.content, args.mode);
      return text(`Wrote ${written.bytes} bytes to ${written.uri} (mode=${args.mode}).\n${INDEXING}`);
    },
  );

  register(
    'edit',
    {
      description: 'Replace an exact string in a file. An empty, missing or ambiguous match is an error.',
      inputSchema: {
        uri: z.string(),
        old_string: z.string(),
        new_string: z.string(),
        replace_all: z.boolean().default(false),
        wait: z.boolean().default(false),
        timeout: z.number().nullable().optional(),
      },
    },
    (args) => {
      const bytes = editText(state, identity, uri(args.uri), args.old_string, args.new_string, args.replace_all);
      return text(`Edited ${uri(args.uri)} (${bytes} bytes written).\n${INDEXING}`);
    },
  );

  register(
    'add_resource',
    {
      description: 'Ingest a URL or Git repository as a resource, or get a signed upload URL for a local file.',
      inputSchema: {
        path: z.string().default(''),
        temp_file_id: z.string().default(''),
        add_type: z.string().default(''),
        description: z.string().default(''),
        watch_interval: z.number().default(0),
        processing_mode: z.string().default('semantic_and_vectors'),
        to: z.string().default(''),
        parent: z.string().default(''),
        tags: z.array(z.string()).nullable().optional(),
        tag_mode: z.string().default('replace'),
        args: z.record(z.string(), z.unknown()).nullable().optional(),
      },
    },
    (args) => {
      try {
        return text(addResource(state, identity, args));
      } catch (error) {
        // add_resource reports failures as text, like the server's tool
        return text(`Error: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  );

  register('list_watches', { description: 'List auto-refresh resource watches.' }, () => {
    const watches = [...(state.watches.get(identity.account)?.values() ?? [])];
    if (watches.length === 0) return text('No active watches.');
    return text(
      watches.map((watch) => `- ${watch.to_uri} <- ${watch.source} (every ${watch.watch_interval} min)`).join('\n'),
    );
  });

  register(
    'cancel_watch',
    { description: 'Cancel the auto-refresh watch of a resource.', inputSchema: { to_uri: z.string() } },
    (args) => {
      const target = uri(args.to_uri);
      if (state.watches.get(identity.account)?.delete(target) !== true) throw notFound(`No watch for ${target}`);
      return text(`Cancelled watch for ${target}.`);
    },
  );

  register(
    'grep',
    {
      description: 'Regex search in file contents under a viking:// URI.',
      inputSchema: {
        uri: z.string(),
        pattern: stringOrList,
        case_insensitive: z.boolean().default(false),
        node_limit: z.number().int().default(10),
      },
    },
    (args) => {
      const matches = grepFiles(
        state,
        identity,
        uri(args.uri),
        [args.pattern].flat(),
        args.case_insensitive,
        args.node_limit,
      );
      if (matches.length === 0) return text('No matches found.');
      const patterns = [args.pattern].flat().length;
      const lines = matches.map((match) => `${match.uri}\n  L${match.line}: ${match.content}`);
      return text(`Found ${matches.length} match(es) across ${patterns} pattern(s):\n\n${lines.join('\n')}`);
    },
  );

  register(
    'glob',
    {
      description: 'Find files by name pattern (** any depth, * within a segment).',
      inputSchema: {
        pattern: z.string(),
        uri: z.string().default('viking://'),
        node_limit: z.number().int().default(100),
      },
    },
    (args) => {
      const matches = globFiles(state, identity, args.pattern, uri(args.uri), args.node_limit);
      if (matches.length === 0) return text('No files matched.');
      return text(`Found ${matches.length} file(s):\n${matches.map((match) => `  ${match}`).join('\n')}`);
    },
  );

  register(
    'forget',
    {
      description: 'Permanently delete a file, or a directory with recursive=true.',
      inputSchema: { uri: z.string(), recursive: z.boolean().default(false) },
    },
    (args) => {
      forgetUri(state, identity, uri(args.uri), args.recursive);
      return text(`Deleted: ${uri(args.uri)}`);
    },
  );

  register('health', { description: 'Check that OpenViking is reachable.' }, () =>
    text('OpenViking is healthy (service initialized, storage: VikingFS)'),
  );
}

function addResource(
  state: ServerState,
  identity: Identity,
  args: {
    path: string;
    temp_file_id: string;
    description: string;
    watch_interval: number;
    to: string;
    processing_mode: string;
  },
): string {
  const source = args.path.trim();
  if (source === '' && args.temp_file_id === '')
    throw invalidArgument('Pass path (URL, Git repository or local file) or temp_file_id');
  if (source !== '' && !/^(https?:\/\/|git@)/.test(source)) {
    const token = randomBytes(12).toString('hex');
    return `Local file: upload it to /api/v1/resources/temp_upload?token=${token} (valid 600 s); the upload ingests automatically.`;
  }
  const name = (source.split(/[/:]/).filter(Boolean).pop() ?? args.temp_file_id)
    .replace(/\.git$/, '')
    .replace(/[^A-Za-z0-9._-]/g, '-');
  const target = args.to !== '' ? resolveRequestUri(args.to, identity) : `viking://resources/${name}`;
  if (uriSegments(target).length < 2) throw new OvError('INVALID_URI', `Not a resource target: ${target}`);
  writeText(
    state,
    identity,
    `${target}/source.md`,
    `# ${name}\n\nSource: ${source || args.temp_file_id}\n\n${args.description}`,
    'replace',
  );
  if (args.watch_interval > 0) {
    let watches = state.watches.get(identity.account);
    if (watches === undefined) state.watches.set(identity.account, (watches = new Map()));
    watches.set(target, {
      to_uri: target,
      source,
      watch_interval: args.watch_interval,
      created_at: new Date(state.now()).toISOString(),
    });
  }
  return `Resource added: ${target} (processing_mode=${args.processing_mode}${args.watch_interval > 0 ? `, watched every ${args.watch_interval} min` : ''}).`;
}
