/**
 * The proxy's pure pieces: framing, version negotiation, error wording,
 * listing fallbacks, redaction, the semaphore and snapshot narrowing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fallbackListing, listingField } from '../../src/mcp/discovery.js';
import { credentialFix, failureToRpcError, serverMessageOf } from '../../src/mcp/failures.js';
import { advertisedCapabilities, buildInitializeResult, negotiateProtocolVersion } from '../../src/mcp/initialize.js';
import { createLineSplitter, parseMessage } from '../../src/mcp/jsonRpc.js';
import { redact } from '../../src/mcp/log.js';
import { createSemaphore } from '../../src/mcp/semaphore.js';
import { createSnapshotStore, narrowSnapshot, snapshotPath } from '../../src/mcp/snapshot.js';

describe('jsonRpc', () => {
  it('classifies lines', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":3,"method":"tools/list"}')).toEqual({
      kind: 'request',
      request: { id: 3, method: 'tools/list' },
    });
    expect(parseMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({
      kind: 'notification',
      notification: { method: 'notifications/initialized' },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","result":{}}')).toEqual({ kind: 'response' });
    expect(parseMessage('nope')).toMatchObject({ kind: 'invalid', id: null, error: { code: -32700 } });
    expect(parseMessage('{"id":4,"method":"x"}')).toMatchObject({ kind: 'invalid', id: 4, error: { code: -32600 } });
    expect(parseMessage('{"jsonrpc":"2.0","id":5,"method":"x","params":"s"}')).toMatchObject({
      kind: 'invalid',
      id: 5,
      error: { code: -32600 },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":{},"method":"x"}')).toMatchObject({ kind: 'invalid', id: null });
    expect(parseMessage('[1]')).toMatchObject({ kind: 'invalid', error: { code: -32600 } });
  });

  it('splits lines across chunk and UTF-8 boundaries, with CRLF', () => {
    const lines: string[] = [];
    const feed = createLineSplitter((line) => lines.push(line));
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":1}\n{"c"', 'utf8');
    for (const byte of bytes) feed(Buffer.from([byte]));
    feed(':2}\n');
    expect(lines).toEqual(['{"a":"é"}', '{"b":1}', '{"c":2}']);
  });
});

describe('initialize', () => {
  it('echoes a supported version and falls back to the newest', () => {
    expect(negotiateProtocolVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiateProtocolVersion('2099-01-01')).toBe('2025-11-25');
    expect(negotiateProtocolVersion(undefined)).toBe('2025-11-25');
  });

  it('mirrors the upstream capabilities with tools.listChanged on', () => {
    expect(advertisedCapabilities({ tools: { listChanged: false }, completions: {} })).toEqual({
      tools: { listChanged: true },
      completions: {},
    });
    expect(advertisedCapabilities(undefined)).toEqual({ tools: { listChanged: true }, resources: {}, prompts: {} });
    const result = buildInitializeResult(
      { protocolVersion: '2025-03-26' },
      { capabilities: { tools: {} }, instructions: 'hi' },
      { name: 'openviking', version: '1' },
    );
    expect(result).toEqual({
      protocolVersion: '2025-03-26',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'openviking', version: '1' },
      instructions: 'hi',
    });
  });
});

describe('failures', () => {
  const credentials = (apiKey: string | undefined, source: string | undefined, rootKeyOnly = false) => ({
    ...(apiKey ? { apiKey } : {}),
    sources: source ? { apiKey: source } : {},
    rootKeyOnly,
  });

  it('names the credential source and its fix', () => {
    expect(credentialFix(credentials(undefined, undefined), 401)).toContain('No API key is configured');
    expect(credentialFix(credentials('k', 'env:OPENVIKING_API_KEY'), 401)).toContain('OPENVIKING_API_KEY');
    expect(credentialFix(credentials('k', 'env:OPENVIKING_API_KEY'), 401)).toContain('restart');
    expect(credentialFix(credentials('k', 'file:~/.openviking/ovcli.conf#api_key'), 401)).toContain(
      '~/.openviking/ovcli.conf#api_key',
    );
    expect(credentialFix(credentials('k', 'userConfig:api_key'), 401)).toContain('"api_key" option');
    expect(credentialFix(credentials('k', 'file:~/.openviking/ov.conf#server.root_api_key', true), 403)).toContain(
      'ROOT key',
    );
  });

  it('maps every failure kind to a JSON-RPC error without leaking the key', () => {
    const context = {
      mcpUrl: 'http://127.0.0.1:1/mcp',
      credentials: credentials('secret-key', 'env:OPENVIKING_API_KEY'),
    };
    const auth = failureToRpcError({ kind: 'http', status: 401, serverMessage: 'Invalid API Key' }, context);
    expect(auth).toMatchObject({ code: -32001, data: { status: 401, credentialSource: 'env:OPENVIKING_API_KEY' } });
    expect(JSON.stringify(auth)).not.toContain('secret-key');
    expect(failureToRpcError({ kind: 'http', status: 500, serverMessage: 'boom' }, context)).toMatchObject({
      code: -32002,
      message: expect.stringContaining('HTTP 500: boom'),
    });
    expect(failureToRpcError({ kind: 'network', cause: 'ECONNREFUSED' }, context).message).toContain(
      'cannot reach http://127.0.0.1:1/mcp (ECONNREFUSED)',
    );
    expect(failureToRpcError({ kind: 'timeout', timeoutMs: 1500 }, context)).toMatchObject({
      code: -32001,
      data: { timeoutMs: 1500 },
    });
    expect(failureToRpcError({ kind: 'rpc', code: -32602, message: 'bad args', data: { x: 1 } }, context)).toEqual({
      code: -32602,
      message: 'bad args',
      data: { x: 1 },
    });
    expect(failureToRpcError({ kind: 'protocol', message: 'text/html' }, context).code).toBe(-32003);
  });

  it('quotes the server message from JSON-RPC, envelope or plain bodies', () => {
    expect(serverMessageOf('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Missing API Key"}}')).toBe(
      'Missing API Key',
    );
    expect(serverMessageOf('{"status":"error","error":{"code":"NOT_FOUND","message":"gone"}}')).toBe('gone');
    expect(serverMessageOf('Bad Gateway')).toBe('Bad Gateway');
    expect(serverMessageOf('x'.repeat(1000)).length).toBeLessThan(310);
  });
});

describe('discovery', () => {
  it('has fallbacks for first-page listings only', () => {
    expect(listingField('tools/list', undefined)).toBe('tools');
    expect(listingField('resources/templates/list', {})).toBe('resourceTemplates');
    expect(listingField('tools/list', { cursor: 'p2' })).toBeUndefined();
    expect(listingField('tools/call', {})).toBeUndefined();
    expect(fallbackListing('prompts')).toEqual({ prompts: [] });
  });
});

describe('log redaction', () => {
  it('blanks every occurrence of the key', () => {
    expect(redact('a sk-123456 b sk-123456', ['sk-123456', undefined])).toBe('a [redacted] b [redacted]');
    expect(redact('short ab', ['ab'])).toBe('short ab');
  });
});

describe('semaphore', () => {
  it('never runs more than its limit and releases on failure', async () => {
    const semaphore = createSemaphore(2);
    let running = 0;
    let peak = 0;
    const task = (fail: boolean) =>
      semaphore.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (fail) throw new Error('task failed');
        return 'ok';
      });
    const results = await Promise.allSettled([task(true), task(false), task(true), task(false), task(false)]);
    expect(peak).toBe(2);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(semaphore.active).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });
});

describe('snapshot', () => {
  it('accepts only its own version and URL', () => {
    const value = {
      version: 1,
      mcpUrl: 'u',
      savedAt: 5,
      profile: { capabilities: { tools: {} } },
      tools: [{ name: 'find' }],
    };
    expect(narrowSnapshot(value, 'u')).toEqual(value);
    expect(narrowSnapshot(value, 'other')).toBeUndefined();
    expect(narrowSnapshot({ ...value, version: 2 }, 'u')).toBeUndefined();
    expect(narrowSnapshot({ version: 1, mcpUrl: 'u', profile: 'x', tools: 'y' }, 'u')).toEqual({
      version: 1,
      mcpUrl: 'u',
      savedAt: 0,
    });
  });

  it('keeps both of two concurrent updates (the profile and the tool list arrive together), in memory and on disk', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ov-snapshot-'));
    try {
      const store = createSnapshotStore({ cacheDir, now: () => 7, warn: () => undefined });
      const profile = { capabilities: { tools: { listChanged: true } } };
      const tools = [{ name: 'find' }, { name: 'read' }];
      await Promise.all([store.update('u', { profile }), store.update('u', { tools })]);
      expect(await store.load('u')).toMatchObject({ profile, tools });
      const onDisk = narrowSnapshot(JSON.parse(readFileSync(snapshotPath(cacheDir, 'u'), 'utf8')), 'u');
      expect(onDisk).toMatchObject({ profile, tools });
      // A later process reads both back.
      expect(await createSnapshotStore({ cacheDir, now: () => 8, warn: () => undefined }).load('u')).toMatchObject({
        profile,
        tools,
      });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('a load right after an update sees it, before the write (a listing that fails next serves the list just received)', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ov-snapshot-'));
    try {
      const store = createSnapshotStore({ cacheDir, now: () => 7, warn: () => undefined });
      const tools = [{ name: 'find' }];
      const written = store.update('u', { tools });
      expect(await store.load('u')).toMatchObject({ tools });
      await written;
      expect(narrowSnapshot(JSON.parse(readFileSync(snapshotPath(cacheDir, 'u'), 'utf8')), 'u')).toMatchObject({
        tools,
      });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('an update that changes nothing writes nothing', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ov-snapshot-'));
    try {
      const tools = [{ name: 'find' }];
      await createSnapshotStore({ cacheDir, now: () => 7, warn: () => undefined }).update('u', { tools });
      const store = createSnapshotStore({ cacheDir, now: () => 8, warn: () => undefined });
      await store.update('u', { tools: [{ name: 'find' }] });
      expect(narrowSnapshot(JSON.parse(readFileSync(snapshotPath(cacheDir, 'u'), 'utf8')), 'u')?.savedAt).toBe(7);
      await store.update('u', { tools: [{ name: 'read' }] });
      expect(narrowSnapshot(JSON.parse(readFileSync(snapshotPath(cacheDir, 'u'), 'utf8')), 'u')?.savedAt).toBe(8);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
