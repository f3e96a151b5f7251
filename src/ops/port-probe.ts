/**
 * Whether a port can be listened on, asked before the store opens: a server that cannot listen
 * must fail before it creates an organization (and prints its owner's password) in an empty
 * data directory. The real bind is exclusive too (see HttpFront.listen), for the race.
 */
import { createServer } from 'node:net';

/** Resolves if `host:port` is free; rejects with the system's reason otherwise. Port 0 is always free. */
export function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use (another Parley, or another program)'
        : error.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine`
        : error.code === 'EACCES' ? 'ports below 1024 need privileges (use a higher port behind a reverse proxy)'
        : error.message;
      reject(new Error(`cannot listen on ${host}:${port}: ${why}`));
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
