/**
 * Fetches what the session-start block shows: the profile file and the
 * names under `preferences/` and `entities/`, all three in parallel, plus
 * (on resume and compact) the latest archive overview of this session.
 * Every read is optional: a missing file or folder is simply absent.
 *
 * @module
 */
import type { LsEntry, OpenVikingClient } from '../openviking/types.js';
import { cachedUserSpace, lastKnownUserSpace, resolveUserSpace } from '../openviking/userSpace.js';
import type { UserSpaceCacheRef } from '../openviking/userSpace.js';

/** One memory file of a listing: its path below the folder, and an abstract when the server gave one. */
export interface ListedMemory {
  name: string;
  abstract?: string;
}

export interface ProfileSources {
  space: string;
  profile?: string;
  preferences: ListedMemory[];
  entities: ListedMemory[];
  /** Whether at least one of the three reads reached the server (false: treat the server as down). */
  reached: boolean;
}

/** Listing limits of the reference plugins (openviking-api.md §2.3). */
const LISTING_LIMIT = 512;

export function memoriesRoot(space: string): string {
  return `viking://user/${space}/memories`;
}

export async function fetchProfileSources(client: OpenVikingClient, space: string): Promise<ProfileSources> {
  const root = memoriesRoot(space);
  const listing = (folder: string) =>
    client.ls(`${root}/${folder}`, {
      output: 'agent',
      recursive: true,
      absLimit: LISTING_LIMIT,
      nodeLimit: LISTING_LIMIT,
    });
  const [profile, preferences, entities] = await Promise.all([
    client.read(`${root}/profile.md`),
    listing('preferences'),
    listing('entities'),
  ]);
  const text = profile.ok ? profile.result.trim() : '';
  return {
    space,
    ...(text !== '' ? { profile: text } : {}),
    preferences: preferences.ok ? memoryFiles(preferences.result, `${root}/preferences/`) : [],
    entities: entities.ok ? memoryFiles(entities.result, `${root}/entities/`) : [],
    reached: [profile, preferences, entities].some((result) => result.ok || result.status !== 0),
  };
}

/** Non-directory `.md` entries, named by `rel_path` (else the URI below the folder), sorted by name. */
export function memoryFiles(entries: readonly LsEntry[], folderUri: string): ListedMemory[] {
  const files = entries
    .filter((entry) => entry.isDir !== true)
    .map((entry) => ({
      entry,
      name: entry.rel_path ?? (entry.uri.startsWith(folderUri) ? entry.uri.slice(folderUri.length) : entry.uri),
    }))
    .filter(({ name }) => name.endsWith('.md') && !name.split('/').some((part) => part.startsWith('.')))
    .map(({ entry, name }) => {
      const abstract = entry.abstract?.replace(/\s+/g, ' ').trim();
      return abstract ? { name, abstract } : { name };
    });
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The latest archive overview of `ovSessionId`, or undefined (no archive yet, or the server failed). */
export async function fetchArchiveOverview(
  client: OpenVikingClient,
  ovSessionId: string,
  tokenBudget: number,
): Promise<string | undefined> {
  if (ovSessionId === '') return undefined;
  const context = await client.sessionContext(ovSessionId, tokenBudget);
  const overview = context.ok ? context.result.latest_archive_overview?.trim() : undefined;
  return overview ? overview : undefined;
}

/**
 * The start block's sources, with as few round trips in a row as the cache
 * allows: a cached space reads at once; an expired one is read with while
 * the space is resolved again in parallel (a changed answer reads again);
 * none at all resolves first.
 */
export async function fetchProfileFor(
  client: OpenVikingClient,
  ref: UserSpaceCacheRef,
): Promise<ProfileSources | undefined> {
  const cached = cachedUserSpace(ref);
  if (cached !== undefined) return fetchProfileSources(client, cached);
  const guess = lastKnownUserSpace(ref);
  if (guess === undefined) {
    const space = await resolveUserSpace(client, ref);
    return space === undefined ? undefined : fetchProfileSources(client, space);
  }
  const [space, sources] = await Promise.all([resolveUserSpace(client, ref), fetchProfileSources(client, guess)]);
  return space === undefined || space === guess ? sources : fetchProfileSources(client, space);
}
