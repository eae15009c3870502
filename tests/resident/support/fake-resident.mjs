// A stand-in resident for the client tests: reads request lines from a FIFO
// like the real one (read-write, non-blocking, through the event loop) and
// answers by `mode` (in the protocol version the request spoke): `echo` (a context block naming the prompt), `silent`
// (never answers), `garbage` (a reply that is not one), `empty` (an empty
// reply file: what a resident that cannot write its answer leaves). Each request it
// takes is appended to `<log>` as a JSON line. Prints `ready` once listening.
// usage: node fake-resident.mjs <fifo> <dir> <key> <mode> <log>
import { appendFileSync, constants, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';

const [fifo, dir, key, mode, log] = process.argv.slice(2);
const socket = new Socket({
  fd: openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK),
  readable: true,
  writable: false,
});
socket.setEncoding('utf8');
let pending = '';
socket.on('data', (text) => {
  const lines = (pending + text).split('\n');
  pending = lines.pop();
  for (const line of lines) take(line);
});

function take(line) {
  const space = line.indexOf(' ');
  const id = space === -1 ? line : line.slice(0, space);
  let json;
  if (space === -1) {
    const file = join(dir, `${key}-${id}.request`);
    json = readFileSync(file, 'utf8');
    unlinkSync(file);
  } else {
    json = line.slice(space + 1);
  }
  const request = JSON.parse(json);
  appendFileSync(
    log,
    `${JSON.stringify({ id, inline: space !== -1, prompt: request.input.prompt, env: request.env, cwd: request.cwd })}\n`,
  );
  if (mode === 'silent') return;
  const reply =
    mode === 'garbage'
      ? 'not a reply'
      : mode === 'empty'
        ? ''
        : JSON.stringify({ v: request.v, result: { kind: 'context', text: `echo:${request.input.prompt}` } });
  const path = join(dir, `${key}-${id}.reply`);
  writeFileSync(`${path}.tmp`, reply);
  renameSync(`${path}.tmp`, path);
}
process.stdout.write('ready\n');
