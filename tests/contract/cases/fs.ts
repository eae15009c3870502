/**
 * File reads (openviking-api.md §2.3, §3; docs/host-facts.md F16, F37,
 * F40): the user-space lookup's listing of `viking://user`, the profile
 * block's `content/read` and recursive agent listings, `viking://~` (the
 * doctor's probe, expanded in every mode by 0.5.2), and the 404s of what
 * does not exist. The plugin reads `uri`, `name`, `isDir`, `rel_path`,
 * `abstract` of an entry and the text of a read.
 *
 * @module
 */
import { expect } from 'vitest';
import { as, home, newTenant, secondUser, writeFile } from '../target.js';
import { errorOf, okResult, type ContractCase } from './case.js';

const ls = (uri: string, query = ''): string => `/api/v1/fs/ls?uri=${encodeURIComponent(uri)}${query}`;
const read = (uri: string): string => `/api/v1/content/read?uri=${encodeURIComponent(uri)}`;

export const fsCases: readonly ContractCase[] = [
  {
    name: 'fs/ls viking://user (original): the caller’s space by name; dev mode lists every user of the account, a key only its own',
    covers: ['GET /api/v1/fs/ls'],
    async run(target) {
      const tenant = await newTenant(target, 'space');
      const other = await secondUser(target, tenant, 'space-other');
      await writeFile(target, tenant, home(tenant, 'memories/profile.md'), 'Profile of the first user.');
      await writeFile(target, other, home(other, 'memories/profile.md'), 'Profile of the second user.');
      const listing = okResult<Array<Record<string, unknown>>>(
        await as(target, tenant, 'GET', ls('viking://user', '&output=original')),
      );
      for (const entry of listing) {
        expect(typeof entry.name).toBe('string');
        expect(entry.isDir).toBe(true);
        expect(entry.uri).toBe(`viking://user/${String(entry.name)}`);
      }
      const names = listing.map((entry) => entry.name);
      expect(names).toContain(tenant.user);
      if (target.mode === 'dev') expect(names).toContain(other.user);
      else expect(names).toEqual([tenant.user]);
    },
  },
  {
    name: 'content/read: the text as a string (memory metadata stripped); 404 NOT_FOUND for a missing file',
    covers: ['GET /api/v1/content/read'],
    async run(target) {
      const tenant = await newTenant(target, 'read');
      const profile = home(tenant, 'memories/profile.md');
      await writeFile(target, tenant, profile, '# Profile\n\nBackend engineer; writes Go and TypeScript.');
      expect(okResult(await as(target, tenant, 'GET', read(profile)))).toBe(
        '# Profile\n\nBackend engineer; writes Go and TypeScript.',
      );
      const missing = errorOf(
        await as(target, tenant, 'GET', read(home(tenant, 'memories/nope.md'))),
        404,
        'NOT_FOUND',
      );
      expect(missing.message).toContain('nope.md');
    },
  },
  {
    name: 'fs/ls recursive agent output: uri, isDir, rel_path, abstract (files "") and no name; 404 for a missing folder',
    covers: ['GET /api/v1/fs/ls'],
    async run(target) {
      const tenant = await newTenant(target, 'listing');
      const root = home(tenant, 'memories/preferences');
      await writeFile(target, tenant, `${root}/${tenant.user}/editor.md`, 'Uses Helix as the editor.');
      await writeFile(target, tenant, `${root}/${tenant.user}/testing.md`, 'Prefers vitest with real sockets.');
      const entries = okResult<Array<Record<string, unknown>>>(
        await as(target, tenant, 'GET', ls(root, '&output=agent&recursive=true&abs_limit=512&node_limit=512')),
      );
      for (const entry of entries) {
        expect(entry).not.toHaveProperty('name');
        expect(typeof entry.uri).toBe('string');
        expect(typeof entry.isDir).toBe('boolean');
        expect(typeof entry.abstract).toBe('string');
        expect(entry.uri).toBe(`${root}/${String(entry.rel_path)}`);
      }
      const files = entries.filter((entry) => entry.isDir === false);
      expect(files.map((entry) => entry.rel_path).sort()).toEqual([
        `${tenant.user}/editor.md`,
        `${tenant.user}/testing.md`,
      ]);
      expect(files.map((entry) => entry.abstract)).toEqual(['', '']);
      const missing = await as(target, tenant, 'GET', ls(home(tenant, 'memories/nothing-here')));
      errorOf(missing, 404, 'NOT_FOUND');
    },
  },
  {
    name: 'viking://~ is the caller’s own space in every mode (fs/ls, content/read)',
    covers: ['GET /api/v1/fs/ls', 'GET /api/v1/content/read'],
    async run(target) {
      const tenant = await newTenant(target, 'home');
      await writeFile(target, tenant, home(tenant, 'memories/profile.md'), 'Home alias profile.');
      const listing = okResult<Array<{ uri: string }>>(await as(target, tenant, 'GET', ls('viking://~')));
      expect(listing.map((entry) => entry.uri)).toContain(home(tenant, 'memories'));
      expect(okResult(await as(target, tenant, 'GET', read('viking://~/memories/profile.md')))).toBe(
        'Home alias profile.',
      );
    },
  },
];
