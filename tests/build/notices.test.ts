/**
 * A package anyone may redistribute (issue 30 item 6): every bundle the
 * build makes either includes none of others' code, or carries a pointer to
 * THIRD_PARTY_NOTICES.md, which names what it includes and holds each
 * licence text; checked against esbuild's own metafile of every build
 * (made again here, in memory). On 4953f41 there was no LICENSE, and the
 * bundles dropped the licences of the MCP SDK, zod, ajv (and then undici,
 * gone since D41) they include (`legalComments: 'none'`) and of the ported
 * `posixPath`.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/spawn-hook.js';

interface Component {
  id: string;
  name: string;
  license: string;
  text: string;
}

interface BuildScript {
  bundleBuilds(): BuildOptions[];
  thirdPartyByOutput(metafile: Metafile, root?: string): Record<string, Component[]>;
  NOTICES_FILE: string;
  NOTICE_POINTER: string;
}

const script = (await import(join(REPO_ROOT, 'build.mjs'))) as BuildScript;
let byOutput: Record<string, Component[]> = {};
let outputs: string[] = [];

beforeAll(async () => {
  const metafiles = await Promise.all(
    script
      .bundleBuilds()
      .map((options) =>
        build({ ...options, absWorkingDir: REPO_ROOT, write: false, metafile: true, logLevel: 'silent' }),
      ),
  );
  for (const result of metafiles) {
    Object.assign(byOutput, script.thirdPartyByOutput(result.metafile, REPO_ROOT));
    outputs.push(...Object.keys(result.metafile.outputs));
  }
  byOutput = { ...byOutput };
  outputs = [...new Set(outputs)];
}, 120_000);

describe('licences', () => {
  it('LICENSE at the root is the Apache License 2.0 that package.json and both manifests name', () => {
    expect(readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    for (const file of ['package.json', '.codebuddy-plugin/plugin.json', '.claude-plugin/plugin.json'])
      expect((JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as { license: string }).license).toBe(
        'Apache-2.0',
      );
  });

  it('the build knows what each bundle includes: the MCP SDK, zod and ajv, and the ported posixPath', () => {
    const all = Object.values(byOutput)
      .flat()
      .map((component) => component.id);
    for (const expected of ['@modelcontextprotocol/sdk@', 'zod@', 'ajv@', 'Node.js lib/path.js'])
      expect(
        all.some((id) => id.startsWith(expected)),
        expected,
      ).toBe(true);
    expect(Object.keys(byOutput)).toContain('hooks/register.mjs');
  });

  it("every bundle that includes others' code carries the pointer to the notices", () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const output of Object.keys(byOutput)) {
      const path = join(REPO_ROOT, output);
      expect(existsSync(path), `${output} (run npm run build)`).toBe(true);
      expect(readFileSync(path, 'utf8'), output).toContain(script.NOTICE_POINTER);
    }
  });

  it('the notices name what each bundle includes and hold every licence text', () => {
    const notices = readFileSync(join(REPO_ROOT, script.NOTICES_FILE), 'utf8');
    for (const [output, components] of Object.entries(byOutput)) {
      const row = notices.split('\n').find((line) => line.startsWith(`| \`${output}\` |`));
      expect(row, output).toBeDefined();
      for (const component of components) {
        expect(row, `${output}: ${component.id}`).toContain(`${component.name} (${component.license})`);
        expect(notices, component.id).toContain(component.text);
      }
    }
  });
});
