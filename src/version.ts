/**
 * The plugin's version and User-Agent, taken from the shipped manifest.
 *
 * The manifest is imported as JSON so esbuild inlines it into the bundle: no
 * file is read at run time, and the version the host shows for the plugin is
 * the version the server sees in `User-Agent`. The server does not interpret
 * the header (openviking-api.md §1.2); it exists for operators' logs.
 *
 * @module
 */
import manifest from '../.codebuddy-plugin/plugin.json' with { type: 'json' };

/** Semver from `.codebuddy-plugin/plugin.json`. */
export const PLUGIN_VERSION: string = manifest.version;

/** `User-Agent` sent on every OpenViking request. */
export const USER_AGENT = `openviking-codebuddy/${PLUGIN_VERSION}`;
