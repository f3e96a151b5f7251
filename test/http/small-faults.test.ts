/**
 * Small faults an operator meets on the first day: every status line has its reason phrase (a
 * dead invitation link answers `410 Gone`), and the welcome bot's links lead somewhere.
 */
import { test } from 'tap';
import { connect } from 'node:net';
import { welcomeText } from '../../src/actions/join.js';
import { Role } from '../../src/domain/roles.js';
import { world } from '../helpers/world.js';

/** The status line of a GET, read off the wire (fetch's statusText is not the server's words). */
function statusLine(url: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`));
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n');
      if (end >= 0) {
        socket.destroy();
        resolve(head.slice(0, end));
      }
    });
    socket.on('error', reject);
  });
}

test('a revoked invitation link answers 410 with its reason phrase', async (t) => {
  const { iago } = await world(t);
  const made = await iago.post('/invites/multiuse', {});
  t.equal(made.status, 200);
  const link = made.body.invite_link as string;
  t.equal(await statusLine(link), 'HTTP/1.1 200 OK');
  const invites = (await iago.get('/invites')).body.invites as { id: number; is_multiuse: boolean }[];
  const id = invites.find((invite) => invite.is_multiuse)!.id;
  t.equal((await iago.delete(`/invites/multiuse/${id}`)).status, 200);
  t.equal(await statusLine(link), 'HTTP/1.1 410 Gone');
});

test('the welcome bot\'s links lead to pages that exist', async (t) => {
  const { server } = await world(t);
  for (const role of [Role.MEMBER, Role.ADMINISTRATOR]) {
    const links = [...welcomeText({ role }).matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    t.ok(links.length > 0, 'the text has links');
    for (const link of links) {
      if (link.startsWith('/')) {
        // A link relative to this server must be served by it.
        const answer = await fetch(`${server.url}${link}`);
        t.not(answer.status, 404, `${link} is served`);
      } else {
        t.match(link, /^https:\/\/(zulip\.com\/help\/[a-z-]+|static\.zulipchat\.com\/)/, `${link}: Zulip's own pages`);
      }
    }
  }
});
