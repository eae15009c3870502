/**
 * A server coming back at the address the plugin knows: a plain TCP
 * forwarder listening on `port` (the port a stopped server left free) that
 * hands every connection to a running real server. From the plugin's side
 * the address refused connections while nothing listened and answers again
 * now, with a real OpenViking behind it (no HTTP is touched on the way).
 *
 * @module
 */
import { connect, createServer, type Server } from 'node:net';

export interface Forwarder {
  close(): Promise<void>;
}

export async function forwardPort(port: number, to: string): Promise<Forwarder> {
  const target = new URL(to);
  const open = new Set<{ destroy(): void }>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client);
    open.add(upstream);
    client.on('close', () => open.delete(client));
    upstream.on('close', () => open.delete(upstream));
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
