import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBoundedStdin } from '../../src/hook/stdin.js';

describe('readBoundedStdin', () => {
  it('reads everything until end, across chunks and multi-byte boundaries', async () => {
    const stream = new PassThrough();
    const reading = readBoundedStdin(stream, 1024, 1_000);
    const bytes = Buffer.from('{"prompt":"héllo ✓"}');
    stream.write(bytes.subarray(0, 13));
    stream.end(bytes.subarray(13));
    expect(await reading).toEqual({ status: 'complete', text: '{"prompt":"héllo ✓"}' });
  });

  it('a TTY is not read at all', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true });
    expect(await readBoundedStdin(stream, 1024, 1_000)).toEqual({ status: 'tty', text: '' });
  });

  it('stops past the bound and destroys the stream', async () => {
    const stream = new PassThrough();
    const reading = readBoundedStdin(stream, 10, 1_000);
    stream.write('0123456789A');
    expect(await reading).toEqual({ status: 'overflow', text: '' });
    expect(stream.destroyed).toBe(true);
  });

  it('gives up on a stream that never ends', async () => {
    const stream = new PassThrough();
    stream.write('{"partial":');
    expect(await readBoundedStdin(stream, 1024, 30)).toEqual({ status: 'timeout', text: '' });
  });

  it('an empty, closed stream is complete and empty; an erroring one is an error', async () => {
    const closed = new PassThrough();
    closed.end();
    expect(await readBoundedStdin(closed, 1024, 1_000)).toEqual({ status: 'complete', text: '' });
    const failing = new PassThrough();
    const reading = readBoundedStdin(failing, 1024, 1_000);
    failing.destroy(new Error('EIO'));
    expect((await reading).status).toBe('error');
  });
});
