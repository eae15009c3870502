/**
 * Memory folders are not memories. OpenViking 0.5.2's context face answers
 * folder entries beside the files (F32): a memory category folder such as
 * `viking://user/<u>/peers/<p>/memories/preferences/<p>` with `detail:
 * "overview"`, whose text is the server's own index of the folder
 * ("# Preferences Overview … - [topic](./topic.md)"), often scoring just
 * below the file it lists. Injected, it repeats the memory's name as if it
 * were a second memory and spends the block's room. Folders under
 * `viking://resources/` are kept: a resource's overview is its summary.
 *
 * @module
 */

/**
 * True for a folder at or below a `memories` segment. Every memory is a
 * Markdown file (0.5.2's templates all name `<…>.md`), so anything there
 * whose name does not end in `.md` is a folder; a folder's name may hold
 * dots (the peer `github.com-acme-app`), so a dot alone proves nothing. The
 * name ends where a character no name holds begins: a server that appends
 * controls or bidi text to its URIs (tests/security/hostile-server) still
 * names a file, which the block shows with those characters dropped.
 */
export function isMemoryFolder(uri: string): boolean {
  const segments = uri.replace(/\/+$/, '').split('/');
  if (!segments.includes('memories')) return false;
  return !/\.md(?![\p{L}\p{N}_.-])/iu.test(segments[segments.length - 1] ?? '');
}
