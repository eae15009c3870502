import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBoundedStdin, readHookStdin } from '../../src/protocol/stdin.js';
import type { StdinFd } from '../../src/protocol/stdin.js';

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

/** A fake fd 0: each readSync hands out the next planned chunk (or throws it). */
function fakeFd(
  plan: Array<Uint8Array | string | Error>,
  characterDevice: boolean | Error = false,
): StdinFd & { reads: number[] } {
  const reads: number[] = [];
  return {
    reads,
    isCharacterDevice: () => {
      if (characterDevice instanceof Error) throw characterDevice;
      return characterDevice;
    },
    readSync: (buffer) => {
      reads.push(buffer.length);
      const next = plan.shift() ?? new Uint8Array(0);
      if (next instanceof Error) throw next;
      const bytes = typeof next === 'string' ? Buffer.from(next) : next;
      if (bytes.length > buffer.length)
        throw new Error(`test bug: chunk of ${bytes.length} bytes for a ${buffer.length}-byte buffer`);
      buffer.set(bytes);
      return bytes.length;
    },
  };
}

const errorWithCode = (code: string): Error => Object.assign(new Error(code), { code });

/** The stream side: counts how often it is opened. */
function fakeStream(): { open: () => PassThrough; stream: PassThrough; opened: () => number } {
  const stream = new PassThrough();
  let opened = 0;
  return {
    stream,
    opened: () => opened,
    open: () => {
      opened += 1;
      return stream;
    },
  };
}

describe('readHookStdin', () => {
  const PAYLOAD = '{"hook_event_name":"PreToolUse","tool_input":{"file_path":"viking://user/é"}}';

  it('a whole JSON object in the first read is complete without waiting for end of input; the stream is never opened', async () => {
    const fd = fakeFd([PAYLOAD]);
    const source = fakeStream();
    expect(await readHookStdin(fd, source.open, 1024, 1_000)).toEqual({
      status: 'complete',
      text: PAYLOAD,
      json: JSON.parse(PAYLOAD),
    });
    expect(fd.reads).toHaveLength(1);
    expect(source.opened()).toBe(0);
    // The same with the trailing newline a hand-written payload has.
    expect(await readHookStdin(fakeFd([`${PAYLOAD}\n`]), source.open, 1024, 1_000)).toEqual({
      status: 'complete',
      text: `${PAYLOAD}\n`,
      json: JSON.parse(PAYLOAD),
    });
    expect(source.opened()).toBe(0);
  });

  it('a 0-byte read is end of input: complete and empty, no stream', async () => {
    const source = fakeStream();
    expect(await readHookStdin(fakeFd([new Uint8Array(0)]), source.open, 1024, 1_000)).toEqual({
      status: 'complete',
      text: '',
    });
    expect(source.opened()).toBe(0);
  });

  it("an EOF error (Windows' end of a pipe) is end of input: complete and empty, no stream", async () => {
    const source = fakeStream();
    expect(await readHookStdin(fakeFd([errorWithCode('EOF')]), source.open, 1024, 1_000)).toEqual({
      status: 'complete',
      text: '',
    });
    expect(source.opened()).toBe(0);
  });

  it('a character device (a terminal, /dev/null) is not read at all', async () => {
    const fd = fakeFd([PAYLOAD], true);
    const source = fakeStream();
    expect(await readHookStdin(fd, source.open, 1024, 1_000)).toEqual({ status: 'tty', text: '' });
    expect(fd.reads).toHaveLength(0);
    expect(source.opened()).toBe(0);
  });

  it('an fd whose type cannot be read is still read', async () => {
    const source = fakeStream();
    expect(await readHookStdin(fakeFd([PAYLOAD], errorWithCode('EBADF')), source.open, 1024, 1_000)).toEqual({
      status: 'complete',
      text: PAYLOAD,
      json: JSON.parse(PAYLOAD),
    });
  });

  it('EAGAIN (a non-blocking fd) or any other read error hands over to the stream reader', async () => {
    for (const code of ['EAGAIN', 'EBADF', 'EISDIR']) {
      const source = fakeStream();
      const reading = readHookStdin(fakeFd([errorWithCode(code)]), source.open, 1024, 1_000);
      expect(source.opened(), code).toBe(1);
      source.stream.end(PAYLOAD);
      expect(await reading, code).toEqual({ status: 'complete', text: PAYLOAD });
    }
  });

  it('a partial first read continues on the stream, byte-exact, even with a character split across the boundary', async () => {
    const bytes = Buffer.from('{"prompt":"naïve ✓ 𝄞 done"}');
    const cut = bytes.indexOf(Buffer.from('𝄞')) + 2; // inside the 4-byte character
    const source = fakeStream();
    const reading = readHookStdin(fakeFd([bytes.subarray(0, cut)]), source.open, 1024, 1_000);
    expect(source.opened()).toBe(1);
    source.stream.write(bytes.subarray(cut, cut + 1));
    source.stream.end(bytes.subarray(cut + 1));
    const result = await reading;
    expect(result.status).toBe('complete');
    expect(Buffer.from(result.text)).toEqual(bytes);
    expect(result.text).toBe('{"prompt":"naïve ✓ 𝄞 done"}');
  });

  it('a first read that ends in "}" but is not yet a whole object (or is not an object) waits for the rest', async () => {
    for (const [first, rest] of [
      ['{"a":"}', '"}'],
      ['[{"a":1}', ']'],
    ] as const) {
      const source = fakeStream();
      const reading = readHookStdin(fakeFd([first]), source.open, 1024, 1_000);
      expect(source.opened(), first).toBe(1);
      source.stream.end(rest);
      expect(await reading, first).toEqual({ status: 'complete', text: first + rest });
    }
  });

  it('the bounds still hold after a partial first read: the first bytes count toward maxBytes, and a silent writer times out', async () => {
    const over = fakeStream();
    const overflowing = readHookStdin(fakeFd(['{"a":"0123']), over.open, 16, 1_000);
    over.stream.write('456789'); // 16 bytes so far: at the bound, not past it
    over.stream.write('A');
    expect(await overflowing).toEqual({ status: 'overflow', text: '' });
    expect(over.stream.destroyed).toBe(true);

    const silent = fakeStream();
    expect(await readHookStdin(fakeFd(['{"partial":']), silent.open, 1024, 30)).toEqual({
      status: 'timeout',
      text: '',
    });
  });

  it('a first read larger than maxBytes is an overflow, without opening the stream; the read asks for at most maxBytes + 1', async () => {
    const fd = fakeFd(['{"content":"0123456789"}'.slice(0, 11)]);
    const source = fakeStream();
    expect(await readHookStdin(fd, source.open, 10, 1_000)).toEqual({ status: 'overflow', text: '' });
    expect(fd.reads).toEqual([11]);
    expect(source.opened()).toBe(0);
    // Exactly maxBytes is still in bounds.
    expect(await readHookStdin(fakeFd(['{"a":"xx"}']), source.open, 10, 1_000)).toEqual({
      status: 'complete',
      text: '{"a":"xx"}',
      json: { a: 'xx' },
    });
  });
});
