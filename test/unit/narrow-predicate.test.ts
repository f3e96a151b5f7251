/**
 * The one narrow predicate, run through both of its uses on one table: GET /messages (a narrow's
 * terms on stored records, MessageQuery) and the event-queue filter (a POST /register narrow on
 * each event's message, acceptsEvent). Each row says which of four messages the narrow keeps.
 */
import { test } from 'tap';
import { checkEventNarrow } from '../../src/domain/narrow-predicate.js';
import { acceptsEvent } from '../../src/events/queue-filter.js';
import { messageFlags } from '../../src/queries/message-state.js';
import { MessageQuery } from '../../src/queries/message-query.js';
import { narrowTerms } from '../../src/queries/narrow-terms.js';
import { HAMLET, register, send, serverQueue, take } from '../helpers/events.js';
import { demoClients, startTestServer } from '../helpers/server.js';

test('one narrow predicate for GET /messages and for event queues', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.destroy());
  const { hamlet, othello } = demoClients(server);
  const queue = await register(hamlet, { event_types: JSON.stringify(['message']) });
  const hamletUser = server.services.org.users.get(HAMLET)!;

  const sent = {
    mention: await send(othello, 'Verona', `@**${hamletUser.fullName}** come and see`, 'castle'),
    resolved: await send(othello, 'Verona', 'all done', '✔ done'),
    direct: await send(othello, [HAMLET], 'a word in private'),
    denmark: await send(othello, 'Denmark', 'something is rotten', 'Castle'),
  };
  t.equal((await hamlet.post('/messages/flags', { messages: JSON.stringify([sent.direct]), op: 'add', flag: 'starred' })).status, 200);
  const events = new Map((await take(queue)).map((event) => [event.message.id as number, event]));
  t.equal(events.size, 4, 'each message reached the queue');
  const othelloEmail = events.get(sent.mention).message.sender_email as string;
  const descriptor = serverQueue(server, queue, HAMLET)!.descriptor;

  const all = Object.values(sent);
  const table: { narrow: [string, string][]; keeps: number[] }[] = [
    { narrow: [['stream', 'Verona']], keeps: [sent.mention, sent.resolved] },
    { narrow: [['channel', 'verona']], keeps: [sent.mention, sent.resolved] },
    { narrow: [['stream', 'Verona'], ['topic', 'CASTLE']], keeps: [sent.mention] },
    { narrow: [['topic', 'castle']], keeps: [sent.mention, sent.denmark] },
    { narrow: [['sender', othelloEmail]], keeps: all },
    { narrow: [['sender', othelloEmail], ['stream', 'Denmark']], keeps: [sent.denmark] },
    { narrow: [['is', 'dm']], keeps: [sent.direct] },
    { narrow: [['is', 'private']], keeps: [sent.direct] },
    { narrow: [['is', 'mentioned']], keeps: [sent.mention] },
    { narrow: [['is', 'resolved']], keeps: [sent.resolved] },
    { narrow: [['is', 'starred']], keeps: [sent.direct] },
    { narrow: [['is', 'unread']], keeps: all },
    { narrow: [['is', 'alerted']], keeps: [] },
    { narrow: [['stream', 'Denmark'], ['topic', 'nothing here']], keeps: [] },
  ];

  for (const { narrow, keeps } of table) {
    const label = JSON.stringify(narrow);
    const query = new MessageQuery(server.services, hamletUser, narrowTerms(server.services, hamletUser, narrow));
    const queueNarrow = { ...descriptor, narrow: checkEventNarrow(narrow) };
    const byMessages: number[] = [];
    const byEvents: number[] = [];
    for (const id of all) {
      if (query.candidate(id) !== undefined) byMessages.push(id);
      const flags = messageFlags(server.services, HAMLET, server.services.messages.get(id)!) ?? 0;
      if (acceptsEvent(queueNarrow, events.get(id), flags)) byEvents.push(id);
    }
    t.same(byMessages, keeps, `GET /messages ${label}`);
    t.same(byEvents, keeps, `event queue ${label}`);
  }
});
