/**
 * What a real-server test file gets from the suite's globalSetup: the two
 * shared servers' addresses, and their fake provider's request log, read
 * from its JSONL file (the provider runs in the setup's process).
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { ProviderRequest } from '../../support/model-provider/index.js';

export interface SharedServer {
  url: string;
  version: string;
  auth: 'dev' | 'api_key';
  rootKey?: string;
  /** The JSONL file of every request the server made to its model provider. */
  providerLog: string;
}

export function sharedServers(): { dev: SharedServer; keyed: SharedServer } {
  return inject('realServers');
}

/** The provider's requests so far, optionally of one kind. */
export function providerRequests(server: SharedServer, kind?: ProviderRequest['kind']): ProviderRequest[] {
  if (!existsSync(server.providerLog)) return [];
  const entries = readFileSync(server.providerLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ProviderRequest);
  return kind === undefined ? entries : entries.filter((entry) => entry.kind === kind);
}
