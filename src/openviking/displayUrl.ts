/**
 * A URL as the plugin may show it (issue 20 item 5): in errors, logs,
 * notices and doctor, whose output reaches the model through
 * `/openviking:doctor`. Never the user info (`user:password@`), however
 * it is written; never a query or fragment (tokens live there too).
 *
 * Text-based on purpose: a password holding `/` or `@` unencoded
 * (`http://u:pa/ss@proxy:3128`, `http://u:12/34@proxy`) either fails to
 * parse or parses with the user's words as the host (`u:12`), so a parsed
 * URL cannot be trusted to say where its credentials end. Everything from
 * `//` up to the LAST `@` is dropped; the host and port follow it. A URL
 * whose path holds an `@` loses that part of its path in the display
 * (safe, and rare for server URLs; never seen in a proxy's).
 *
 * @module
 */

/**
 * `scheme://host:port` of `text` (`host:port` for a text written without a
 * scheme, such as a proxy `user:pw@proxy:3128`), plus the path when
 * `withPath` (server URLs: `https://host/openviking`); `(not a URL)` when
 * there is no host.
 */
export function displayUrl(text: string, withPath = false): string {
  const trimmed = text.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed);
  const rest = scheme === null ? trimmed : trimmed.slice(scheme[0].length);
  const afterUser = rest.slice(rest.lastIndexOf('@') + 1);
  const hostEnd = afterUser.search(/[/?#\\]/);
  const host = hostEnd === -1 ? afterUser : afterUser.slice(0, hostEnd);
  if (host === '' || /\s/.test(host)) return '(not a URL)';
  const path =
    withPath && hostEnd !== -1 && afterUser[hostEnd] === '/' ? (afterUser.slice(hostEnd).split(/[?#]/)[0] ?? '') : '';
  return `${scheme === null ? '' : `${(scheme[1] as string).toLowerCase()}://`}${host}${path.replace(/\/+$/, '')}`;
}
