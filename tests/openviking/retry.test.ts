import { describe, expect, it } from 'vitest';
import { isRetryable } from '../../src/openviking/retry.js';

describe('isRetryable', () => {
  const cases: Array<[string, Parameters<typeof isRetryable>[0], boolean]> = [
    ['no HTTP answer', { status: 0, code: 'NETWORK' }, true],
    ['timeout', { status: 0, code: 'TIMEOUT' }, true],
    ['deadline', { status: 0, code: 'DEADLINE' }, true],
    ['unusable reply', { status: 200, code: 'BAD_RESPONSE' }, false],
    ['oversized reply (no status)', { status: 0, code: 'BAD_RESPONSE' }, false],
    ['request refused locally', { status: 0, code: 'BAD_REQUEST' }, false],
    ['400', { status: 400, code: 'INVALID_ARGUMENT' }, false],
    ['401', { status: 401, code: 'UNAUTHENTICATED' }, false],
    ['403', { status: 403, code: 'PERMISSION_DENIED' }, false],
    ['404', { status: 404, code: 'NOT_FOUND' }, false],
    ['405', { status: 405, code: 'UNKNOWN' }, false],
    ['408', { status: 408 }, true],
    ['409 without details', { status: 409, code: 'CONFLICT' }, false],
    ['409 retryable:false', { status: 409, details: { retryable: false } }, false],
    ['409 retryable:"true" (string)', { status: 409, details: { retryable: 'true' } }, false],
    ['409 retryable:true', { status: 409, code: 'CONFLICT', details: { retryable: true } }, true],
    ['410', { status: 410, code: 'SESSION_EXPIRED' }, false],
    ['412', { status: 412, code: 'FAILED_PRECONDITION' }, false],
    ['429', { status: 429, code: 'RESOURCE_EXHAUSTED' }, true],
    ['500', { status: 500, code: 'INTERNAL' }, true],
    ['501', { status: 501, code: 'UNIMPLEMENTED' }, true],
    ['503', { status: 503, code: 'UNAVAILABLE' }, true],
    ['504', { status: 504, code: 'DEADLINE_EXCEEDED' }, true],
    ['599', { status: 599 }, true],
    ['200 status:error envelope', { status: 200, code: 'INTERNAL' }, false],
  ];
  it.each(cases)('%s', (_name, facts, expected) => {
    expect(isRetryable(facts)).toBe(expected);
  });
});
