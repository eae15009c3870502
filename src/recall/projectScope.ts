/**
 * Recall keeps to the project (DESIGN D24): a memory under another
 * project's peer folder (`viking://user/<u>/peers/<other>/…`) never reaches
 * the block. The server's scoping alone does not do it: OpenViking 0.5.2's
 * `other_peer_penalty` only ranks, the score threshold applies to the raw
 * score (docs/host-facts.md F38), so under `peer_scope: all` another
 * project's memory on the same subject scores as high as ours, and users of
 * OpenViking's own plugins report other projects' recall noise even under
 * `actor` (#4205, ../shared/peers.md). The user's own memories (not under
 * `peers/`) stay; so do the project's earlier ids' (D24), asked for only
 * when an answer holds another peer's memory, so the common prompt pays
 * nothing for them. Without a project peer nothing is dropped: there is no
 * project to keep to.
 *
 * @module
 */

/** The peer folder a user-space URI lies under, if any. */
const PEER_FOLDER = /^viking:\/\/user\/[^/]+\/peers\/([^/]+)(?:\/|$)/;

/**
 * Whether a URI is the user's or the project's, for the project `peer`
 * (undefined or '': no project, everything is kept); `earlierIds` is
 * called at most once, when a URI of another peer is first seen.
 */
export function projectScope(
  peer: string | undefined,
  earlierIds: () => readonly string[] = () => [],
): (uri: string) => boolean {
  if (peer === undefined || peer === '') return () => true;
  let earlier: ReadonlySet<string> | undefined;
  return (uri) => {
    const folder = PEER_FOLDER.exec(uri)?.[1];
    if (folder === undefined || folder === peer) return true;
    earlier ??= new Set(earlierIds());
    return earlier.has(folder);
  };
}
