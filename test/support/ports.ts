import { connect } from 'node:net';

/**
 * A port on loopback that nothing listens on: connections to it are refused. Picked below Linux's
 * ephemeral range (32768 and up), where the servers other test files start on port 0 never land,
 * so none of them can take it between this check and the test's use of it (a call that must be
 * refused, or a server that must come back on the same port); a port that answers is passed over.
 */
export async function closedPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no refused port found on 127.0.0.1');
}
