/**
 * The privacy filter on what the model sends OpenViking through the MCP
 * proxy (DESIGN D17). The proxy forwards every request verbatim except the
 * user text inside the calls that store or search: `remember` messages,
 * `write` content, `edit` replacement text, `add_resource` descriptions,
 * `add_skill` text, and the queries of `search`/`find`. The credential
 * store's tools (`privacy_upsert`, `privacy_resolve`) pass as sent: storing
 * and returning a secret is what they are for (D39); capture keeps neither. Those pass the same filter as captured turns
 * and recall queries (transcript/privacy.ts): no `<private>` section, no
 * recognised secret. The model can copy a key out of a `.env` file into a
 * memory as easily as a user can paste one into a prompt; a memory is shared
 * with every later session and a server-side index, so the same promise
 * holds. Everything else (URIs, `edit`'s `old_string`, which must match
 * stored text, tool names, listings) is left exactly as sent.
 *
 * @module
 */
import { isRecord } from '../util/json.js';
import { outboundQuery, sanitizeText } from '../transcript/privacy.js';

type Filter = (value: string) => string;

/** Per tool: which argument paths hold user text, and how each is filtered. */
const TOOL_FIELDS: Readonly<Record<string, ReadonlyArray<readonly [path: readonly string[], filter: Filter]>>> = {
  remember: [[['messages', '*', 'content'], sanitizeText]],
  write: [[['content'], sanitizeText]],
  edit: [[['new_string'], sanitizeText]],
  add_resource: [[['description'], sanitizeText]],
  // A skill's text is stored and indexed like a written file (0.5.2, D39).
  add_skill: [[['data'], sanitizeText]],
  search: [[['query'], outboundQuery]],
  find: [[['query'], outboundQuery]],
};

/** `value` with the strings at `path` (`*` = every array item) filtered; a new object, the input untouched. */
function filterAt(value: unknown, path: readonly string[], filter: Filter): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return typeof value === 'string' ? filter(value) : value;
  if (head === '*') return Array.isArray(value) ? value.map((item) => filterAt(item, rest, filter)) : value;
  if (!isRecord(value) || !(head in value)) return value;
  return { ...value, [head]: filterAt(value[head], rest, filter) };
}

/** The params to forward upstream for `method`: a `tools/call` of a storing or searching tool gets its user text filtered. */
export function filterOutboundParams(
  method: string,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (method !== 'tools/call' || params === undefined) return params;
  const fields = typeof params['name'] === 'string' ? TOOL_FIELDS[params['name']] : undefined;
  if (fields === undefined || !isRecord(params['arguments'])) return params;
  let args: unknown = params['arguments'];
  for (const [path, filter] of fields) args = filterAt(args, path, filter);
  return { ...params, arguments: args };
}
