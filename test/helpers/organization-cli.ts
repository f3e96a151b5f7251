/** The admin CLI on a test server's data directory, and clients of its organizations by their hosts. */
import type { Test } from 'tap';
import { Api } from './client.js';
import { runCli } from './process.js';
import type { TestServer } from './server.js';

export const hostOf = (server: TestServer, subdomain: string) => (subdomain ? `${subdomain}.localhost:${server.port}` : `127.0.0.1:${server.port}`);
/** A client of the organization at `subdomain`, as one on its host (the server's address, its Host header). */
export const anonymous = (server: TestServer, subdomain: string) => new Api(server.url, undefined, undefined, hostOf(server, subdomain));
export const cli = (server: TestServer, ...args: string[]) => runCli(args, { PARLEY_DATA_DIR: server.dataDir });

export interface Created {
  email: string;
  apiKey: string;
  url: string;
}

/** `create-organization` with an owner whose password is `<subdomain>-owner-password`; the owner's key and the URL printed. */
export async function createOrganization(t: Test, server: TestServer, subdomain: string, name: string, email: string): Promise<Created> {
  const created = await cli(server, 'create-organization', '--subdomain', subdomain, '--name', name, '--owner-email', email, '--password', `${subdomain}-owner-password`);
  t.equal(created.code, 0, created.stderr);
  const url = /at (\S+)$/m.exec(created.stdout)?.[1] ?? '';
  const apiKey = /^API key:\s+(\S+)$/m.exec(created.stdout)?.[1] ?? '';
  t.match(created.stdout, new RegExp(`^owner:\\s+${email.replace('.', '\\.')}$`, 'm'), 'the owner is printed');
  return { email, apiKey, url };
}
