/**
 * Nothing private leaves the machine in a recall query (issue 14 item 1,
 * DESIGN D17). Prompts carrying `<private>` sections and many kinds of
 * secret go through the BUILT hook (`npm run build` first) and the host
 * simulator, with the resident helper off and on, on each recall tier (the
 * context face, the deprecated recall route, the two raw finds); then the
 * test server's request log (bodies, paths, query strings) must hold none of
 * them, while the prompts' ordinary words did reach the server. A prompt
 * that is only private text sends no request at all.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { recallAnsweredBy, residentsListening } from '../support/resident.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { startOvServer } from '../support/ov-server/index.js';
import { DEFAULT_SEED } from '../support/session-world.js';

// Generated per run: no secret-shaped literal in the repository, and no chance that a seed file holds them.
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const alnum = (length: number) =>
  randomBytes(length * 2)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, length);

const PRIVATE_PASSWORD = `Tr0ub4dor-${hex(4)}`;
const PRIVATE_NOTE = `PRIVATE-NOTE-${hex(6)}`;
const ANTHROPIC = `sk-ant-api03-${alnum(93)}AA`;
const GITHUB = `ghp_${alnum(36)}`;
const AWS_ID = `AKIA${hex(8).toUpperCase()}`;
const AWS_SECRET = `Ab1/${alnum(36)}`;
const BEARER = alnum(40);
const DB_PASSWORD = `pw-${hex(5)}`;
const URL_PASSWORD = `u/${hex(5)}`;
const API_KEY_HEADER = `ovk-${hex(16)}`;
const SLACK_HOOK = `T${hex(4).toUpperCase()}/B${hex(4).toUpperCase()}/${alnum(24)}`;
const STRIPE_WEBHOOK = `whsec_${alnum(32)}`;
const ONLY_PRIVATE = `ONLY-PRIVATE-${hex(6)}`;
const ONLY_SECRET = `sk-proj-${alnum(60)}`;

const SECRETS = [
  PRIVATE_PASSWORD,
  PRIVATE_NOTE,
  ANTHROPIC,
  GITHUB,
  AWS_ID,
  AWS_SECRET,
  BEARER,
  DB_PASSWORD,
  URL_PASSWORD,
  API_KEY_HEADER,
  SLACK_HOOK,
  STRIPE_WEBHOOK,
  ONLY_PRIVATE,
  ONLY_SECRET,
];

/** Prompts with something to recall on besides their secrets; the word in front must reach the server. */
const PROMPTS: Array<[visible: string, prompt: string]> = [
  [
    'osprey deploy fails',
    `osprey deploy fails. <private>root password is ${PRIVATE_PASSWORD}</private> my key is ${ANTHROPIC}`,
  ],
  [
    'osprey helm upgrade',
    `osprey helm upgrade needs GITHUB_TOKEN=${GITHUB} and aws_access_key_id=${AWS_ID} aws_secret_access_key=${AWS_SECRET}`,
  ],
  [
    'osprey staging 401',
    `osprey staging 401 from curl -H "Authorization: Bearer ${BEARER}" and -H "X-API-Key: ${API_KEY_HEADER}"`,
  ],
  ['osprey database', `osprey database: DB_PASS=${DB_PASSWORD} postgres://app:${URL_PASSWORD}@db.internal/prod`],
  [
    'osprey webhooks',
    `osprey webhooks https://hooks.slack.com/services/${SLACK_HOOK} STRIPE_WEBHOOK_SECRET=${STRIPE_WEBHOOK}`,
  ],
  [
    'osprey cluster notes',
    `osprey cluster notes <PRIVATE reason="mine">\n${PRIVATE_NOTE}\n</PRIVATE> and an unclosed <private> ${PRIVATE_PASSWORD} to the end`,
  ],
  ['osprey codebuddy wrapper', `<user_query>osprey codebuddy wrapper <private>${PRIVATE_NOTE}</private></user_query>`],
];

/** Prompts with nothing left once filtered: no request at all. */
const NOTHING_LEFT = [
  `<private>my bank pin and ${ONLY_PRIVATE} and more words to pass the length rule</private>`,
  ONLY_SECRET,
  `  <private>${ONLY_PRIVATE}</private>  ${ONLY_SECRET} `,
];

const TIERS = [
  { name: 'context face', paths: ['/api/v1/search/search'], legacy: false, noRecall: false },
  { name: 'recall route', paths: ['/api/v1/search/search', '/api/v1/search/recall'], legacy: true, noRecall: false },
  {
    name: 'raw finds',
    paths: ['/api/v1/search/search', '/api/v1/search/recall', '/api/v1/search/find'],
    legacy: true,
    noRecall: true,
  },
] as const;

const MODES = [
  { name: 'recall in the hook process', resident: false },
  { name: 'recall through the resident helper', resident: true },
] as const;

/** Everything the server received, as one string: methods, paths, query strings and raw bodies. */
function everythingSent(server: OvTestServer): string {
  return server
    .requests()
    .map((request) => `${request.method} ${request.path} ${JSON.stringify(request.query)}\n${request.rawBody}`)
    .join('\n');
}

let server: OvTestServer;
beforeAll(async () => {
  server = await startOvServer({ seed: DEFAULT_SEED });
});
afterAll(async () => server?.close());

for (const mode of MODES) {
  describe(mode.name, () => {
    for (const tier of TIERS) {
      describe(`tier: ${tier.name}`, () => {
        let world: World;
        beforeAll(async () => {
          world = await createWorld({
            sharedServer: server,
            resident: mode.resident,
            env: { OPENVIKING_PROMPT_DEADLINE_MS: '3000', OPENVIKING_DEBUG: '1' },
          });
          if (mode.resident) {
            await world.sim.fire('UserPromptSubmit', world.payloads().userPromptSubmit('hi'));
            await residentsListening(world.dataDir);
          }
        }, 30_000);
        afterAll(async () => {
          server.faults.clear();
          server.faults.legacyContextFace = false;
          server.faults.noRecallRoute = false;
          await world?.dispose();
        });

        it('sends the ordinary words of every prompt and none of its private text or secrets', async () => {
          server.clearRequests();
          server.faults.legacyContextFace = tier.legacy;
          server.faults.noRecallRoute = tier.noRecall;
          const firedAt = Date.now();
          for (const [, prompt] of PROMPTS)
            await world.sim.fire('UserPromptSubmit', world.payloads().userPromptSubmit(prompt));
          const paths = new Set(server.requests({ path: /\/api\/v1\/search\// }).map((request) => request.path));
          expect([...paths].sort()).toEqual([...tier.paths].sort());
          const sent = everythingSent(server);
          for (const [visible] of PROMPTS) expect(sent, `"${visible}" reached the server`).toContain(visible);
          // Which process recalled, as its record says: the resident in that mode, else the hook itself.
          expect(await recallAnsweredBy(world.dataDir, firedAt)).toBe(mode.resident ? 'resident' : 'hook');
          for (const secret of SECRETS)
            expect(sent.includes(secret), `secret ${secret.slice(0, 12)}… must not be sent`).toBe(false);
          expect(sent).not.toMatch(/<private/i);
        }, 60_000);

        it('a prompt that is only private text or a secret makes no request at all', async () => {
          server.clearRequests();
          server.faults.legacyContextFace = tier.legacy;
          server.faults.noRecallRoute = tier.noRecall;
          for (const prompt of NOTHING_LEFT) {
            const result = await world.sim.fire('UserPromptSubmit', world.payloads().userPromptSubmit(prompt));
            expect(result.outputs[0]?.stdout ?? '').toBe('');
          }
          expect(server.requests({ path: /\/api\/v1\/search\// })).toEqual([]);
          const sent = everythingSent(server);
          for (const secret of SECRETS) expect(sent.includes(secret)).toBe(false);
        }, 60_000);
      });
    }
  });
}
