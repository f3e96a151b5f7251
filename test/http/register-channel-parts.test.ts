/**
 * The organization-wide parts of POST /register that are kept encoded between registrations
 * (queries/register-channel-parts.ts: `streams`, `never_subscribed`, `user_status`, and the
 * channels' name order): the same answer when nothing changed, and every change to a channel,
 * a subscription or a user seen by the very next registration; likewise the realm block
 * (queries/register-realm.ts).
 */
import { test } from 'tap';
import { world } from '../helpers/world.js';
import { HAMLET, IAGO, OTHELLO } from '../helpers/demo-ids.js';

type Channel = { stream_id: number; name: string; description: string; subscribers?: number[] };
type State = { streams: Channel[]; never_subscribed: Channel[]; subscriptions: Channel[]; user_status: Record<string, { status_text?: string }> };

test('POST /register: kept parts follow every change', async (t) => {
  const w = await world(t);
  const { iago, othello, hamlet, org, server } = w;
  const state = async (api: typeof othello): Promise<State> => {
    const response = await api.post('/register', { fetch_event_types: ['subscription', 'stream', 'user_status'], include_subscribers: true });
    t.equal(response.status, 200);
    const { queue_id: _, ...body } = response.body;
    return body as State;
  };
  const names = (channels: Channel[]) => channels.map((c) => c.name);

  const first = await state(othello);
  const counts = server.services.readCaches.registerTexts.counts;
  const reusedBefore = counts.reused;
  t.same(await state(othello), first, 'the same answer again');
  t.ok(counts.reused > reusedBefore, 'the second registration reuses the kept parts');
  const byName = (channels: Channel[]) => [...names(channels)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  t.same(names(first.streams), byName(first.streams), 'streams by name');

  // A new channel: in streams and never_subscribed at once, in its place by name.
  t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Aardvark' }] })).status, 200);
  const fresh = org.channels.byName('Aardvark')!;
  let next = await state(othello);
  t.equal(next.streams[0]!.name, 'Aardvark', 'a new channel is listed first by name');
  const never = next.never_subscribed.find((c) => c.stream_id === fresh.id);
  t.ok(never, 'and among the channels never subscribed to');
  t.same(never!.subscribers, [IAGO], 'with its subscribers');

  // Someone else subscribes: the subscriber list in never_subscribed follows.
  t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Aardvark' }] })).status, 200);
  next = await state(othello);
  t.same(next.never_subscribed.find((c) => c.stream_id === fresh.id)!.subscribers, [IAGO, HAMLET].sort((a, b) => a - b), 'a new subscriber is listed');

  // A rename: the text and the order change.
  t.equal((await iago.patch(`/streams/${fresh.id}`, { new_name: 'Zebra crossing', description: 'Renamed' })).status, 200);
  next = await state(othello);
  const renamed = next.streams.find((c) => c.stream_id === fresh.id)!;
  t.equal(renamed.name, 'Zebra crossing');
  t.equal(renamed.description, 'Renamed');
  t.not(next.streams[0]!.stream_id, fresh.id, 'no longer first');
  t.same(names(next.streams), byName(next.streams), 'in its new place by name');

  // Othello subscribes: it leaves his never_subscribed, and stays in Hamlet's view as before.
  t.equal((await othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'Zebra crossing' }] })).status, 200);
  next = await state(othello);
  t.notOk(next.never_subscribed.some((c) => c.stream_id === fresh.id), 'no longer never subscribed');
  t.ok(next.subscriptions.some((c) => c.stream_id === fresh.id), 'among his subscriptions');
  const own = next.subscriptions.find((c) => c.stream_id === fresh.id)!;
  t.same(own.subscribers, [IAGO, HAMLET, OTHELLO].sort((a, b) => a - b), 'his subscription lists every subscriber, himself included');
  const hamletView = await state(hamlet);
  t.ok(hamletView.subscriptions.some((c) => c.stream_id === fresh.id), "in Hamlet's subscriptions");
  t.notOk(hamletView.never_subscribed.some((c) => c.stream_id === fresh.id), "and not in Hamlet's never_subscribed");
  const again = await state(othello);
  t.same(again.never_subscribed, next.never_subscribed, "Othello's view after Hamlet's is his own again");

  // A status: user_status follows.
  t.notOk(next.user_status[String(HAMLET)]?.status_text, 'no status yet');
  t.equal((await hamlet.post('/users/me/status', { status_text: 'Pondering' })).status, 200);
  next = await state(othello);
  t.equal(next.user_status[String(HAMLET)]!.status_text, 'Pondering', 'a new status is seen at once');
});

test('POST /register: the realm block is kept, and follows every change of the realm', async (t) => {
  const { iago, othello, hamlet } = await world(t);
  const realm = async () => {
    const { queue_id: _, ...body } = (await othello.post('/register', { fetch_event_types: ['realm'] })).body;
    return body as Record<string, unknown>;
  };
  const first = await realm();
  const raw = await fetch(`${othello.baseUrl}/api/v1/register`, {
    method: 'POST',
    headers: { authorization: othello.authorization!, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'fetch_event_types=["realm"]',
  });
  const text = await raw.text();
  for (const key of ['zulip_feature_level', 'event_queue_longpoll_timeout_seconds', 'realm_name']) {
    t.equal(text.split(`"${key}":`).length, 2, `${key} given once (the kept text leaves out the head's fields)`);
  }
  t.same(await realm(), first, 'the same answer again');
  t.equal((await iago.patch('/realm', { name: 'Elsinore', description: 'A **castle**', digest_weekday: 4 })).status, 200);
  t.match(await realm(), { realm_name: 'Elsinore', realm_description: '<p>A <strong>castle</strong></p>', realm_digest_weekday: 4 }, 'a change is seen at once');
  // The rendered description follows what rendering reads (here a user's name).
  t.equal((await iago.patch('/realm', { description: 'Ask @**King Hamlet**' })).status, 200);
  t.match((await realm()).realm_description, /user-mention/, 'a mention renders');
  t.equal((await hamlet.patch('/settings', { full_name: 'Prince Hamlet' })).status, 200);
  t.notMatch((await realm()).realm_description, /user-mention/, 'and no longer once the name is another');
});
