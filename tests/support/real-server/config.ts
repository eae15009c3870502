/**
 * The `ov.conf` a real-server run gets: the models are the local fake
 * provider (or a real embedding endpoint the recall benchmark serves), the
 * workspace is the run's own, and the auth mode is the one the test asks
 * for: `dev` (no key; every request ROOT, the identity from the
 * `X-OpenViking-Account`/`-User` headers) or `api_key` (a root key; data
 * calls need a user key made through the admin API, docs/host-facts.md).
 * Nothing else is set: every other behaviour is the server's default, as a
 * user runs it (intent planning on, working memory off in 0.5.2).
 *
 * @module
 */

export interface EmbeddingEndpoint {
  /** `http://127.0.0.1:<port>/v1` */
  apiBase: string;
  model: string;
  dimension: number;
}

export interface ServerConfigSpec {
  port: number;
  workspace: string;
  rootKey?: string;
  embedding: EmbeddingEndpoint;
  /** The VLM's `api_base` (the fake provider's). */
  vlmApiBase: string;
}

export function serverConfig(spec: ServerConfigSpec): Record<string, unknown> {
  return {
    server: {
      host: '127.0.0.1',
      port: spec.port,
      ...(spec.rootKey !== undefined ? { root_api_key: spec.rootKey } : {}),
    },
    storage: { workspace: spec.workspace },
    embedding: {
      dense: {
        provider: 'openai',
        model: spec.embedding.model,
        api_key: 'sk-fake-provider',
        api_base: spec.embedding.apiBase,
        dimension: spec.embedding.dimension,
        input: 'text',
        encoding_format: 'float',
      },
    },
    vlm: { provider: 'openai', model: 'fake-vlm', api_key: 'sk-fake-provider', api_base: spec.vlmApiBase, timeout: 30 },
  };
}
