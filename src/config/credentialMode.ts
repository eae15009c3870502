/**
 * `OPENVIKING_CREDENTIAL_SOURCE`: which sources the credential chain may read
 * (credentials.ts). The words are a small vocabulary of their own, read
 * before the chain runs; kept apart so the chain stays one file under the size
 * rule. An unknown word is told (a warning), never guessed: it reads as `auto`.
 *
 * @module
 */
import { text } from './pluginOptions.js';

type Env = Readonly<Record<string, string | undefined>>;

export type CredentialMode = 'env' | 'cli' | 'auto';

const MODE_WORDS: Readonly<Record<string, CredentialMode>> = {
  auto: 'auto',
  env: 'env',
  environment: 'env',
  cli: 'cli',
  ovcli: 'cli',
  file: 'cli',
  config: 'cli',
};

function modeText(env: Env): string | undefined {
  return text(env['OPENVIKING_CREDENTIAL_SOURCE']) ?? text(env['OPENVIKING_CREDENTIALS_SOURCE']);
}

/** `OPENVIKING_CREDENTIAL_SOURCE` (or its plural alias) as a mode; a word it does not know is `auto` (with a warning). */
export function credentialMode(env: Env): CredentialMode {
  const raw = (modeText(env) ?? 'auto').toLowerCase();
  return Object.hasOwn(MODE_WORDS, raw) ? (MODE_WORDS[raw] as CredentialMode) : 'auto';
}

/** The warning for a mode word it does not know (it keeps the default, `auto`), or undefined. */
export function credentialModeProblem(env: Env): string | undefined {
  const raw = modeText(env);
  if (raw === undefined || Object.hasOwn(MODE_WORDS, raw.toLowerCase())) return undefined;
  return `OPENVIKING_CREDENTIAL_SOURCE=${JSON.stringify(raw.slice(0, 40))} is not one of auto, env, cli (also environment, ovcli, file, config); using auto`;
}
