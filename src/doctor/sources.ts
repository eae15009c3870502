/**
 * A value's source (`env:OPENVIKING_URL`, `file:~/.openviking/ovcli.conf#url`,
 * `file:…/settings.json#pluginConfigs.openviking@inline.options.server_url`,
 * `userConfig:server_url`, `derived:baseUrl`, `default`) in words a user
 * can act on, for doctor's fixes and notes.
 *
 * @module
 */

/** `OPENVIKING_URL in the environment`, `"url" in ~/.openviking/ovcli.conf`, `the plugin option server_url`. */
export function describeSource(source: string): string {
  if (source.startsWith('env:')) return `${source.slice(4)} in the environment`;
  if (source.startsWith('userConfig:')) return `the plugin option ${source.slice('userConfig:'.length)}`;
  if (source === 'derived:baseUrl') return 'the server URL + /mcp';
  if (source === 'default') return 'the default';
  if (source.startsWith('file:')) {
    const hash = source.indexOf('#');
    const file = source.slice(5, hash === -1 ? undefined : hash);
    return hash === -1 ? file : `"${source.slice(hash + 1)}" in ${file}`;
  }
  return source;
}
