/**
 * Black-box tests of /users/me/subscriptions: listing, subscribing (and creating channels, private
 * ones, for others), unsubscribing and the legacy PATCH, with each user's subscriptions actor.
 * Every subtest has its own demo organization.
 */
import { test } from 'tap';
import { world, setRealm } from '../helpers/world.js';
import { subscriptionsKind } from '../../src/actors/subscriptions.js';
import { CORE_TEAM, DENMARK, GENERAL, MISSING_SETTING, SCOTLAND, SUBSCRIPTION_FIELDS, VERONA, names } from '../helpers/channel-fields.js';


test('subscriptions', async (t) => {
  t.test("each user's subscriptions are owned by that user's subscriptions actor", async (t) => {
    const { server, org } = await world(t);
    const actor = server.services.actors.get(subscriptionsKind, '6');
    t.equal(actor.getSnapshot().value, 'tracking');
    const context = actor.getSnapshot().context;
    t.equal(context.userId, 6);
    t.same(Object.keys(context.channels).map(Number).sort(), [GENERAL, VERONA, DENMARK, SCOTLAND]);
    t.match(context.channels[SCOTLAND], { active: true, isMuted: false, pinToTop: false, desktopNotifications: null });
    const persisted = server.services.db.get<any>(org.keys.actor('subscriptions', '6'));
    t.same(Object.keys(persisted.context.channels).map(Number).sort(), [GENERAL, VERONA, DENMARK, SCOTLAND], 'its snapshot is what the store keeps');
  });

  t.test('GET /users/me/subscriptions', async (t) => {
    const { hamlet, polonius, org } = await world(t);
    const systemGroups = org.realm.systemGroups;
    const response = await hamlet.get('/users/me/subscriptions');
    t.equal(response.status, 200);
    const denmark = response.body.subscriptions.find((s: any) => s.name === 'Denmark');
    t.same(Object.keys(denmark).filter((k) => k !== MISSING_SETTING).sort(), [...SUBSCRIPTION_FIELDS].sort());
    t.notOk(MISSING_SETTING in denmark, `${MISSING_SETTING} (feature level 441) is not sent at 416`);
    t.notOk('subscribers' in denmark, 'no subscribers unless asked');
    t.match(denmark, {
      stream_id: DENMARK, name: 'Denmark', description: 'Something is rotten in the state of Denmark',
      rendered_description: '<p>Something is rotten in the state of Denmark</p>', invite_only: false, is_web_public: false,
      is_archived: false, history_public_to_subscribers: true, first_message_id: null, creator_id: null, folder_id: null,
      is_recently_active: true, message_retention_days: null, stream_post_policy: 1, is_announcement_only: false,
      stream_weekly_traffic: null, subscriber_count: 7, topics_policy: 'inherit',
      is_muted: false, in_home_view: true, pin_to_top: false,
      can_send_message_group: systemGroups['role:everyone'], can_remove_subscribers_group: systemGroups['role:administrators'],
      can_add_subscribers_group: systemGroups['role:nobody'],
    });
    t.type(denmark.date_created, 'number');
    t.match(denmark.color, /^#[0-9a-f]{6}$/);
    for (const key of ['desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify']) {
      t.equal(denmark[key], null, `${key} is null: it follows the user's global setting`);
    }
    const colors = response.body.subscriptions.map((s: any) => s.color);
    t.equal(new Set(colors).size, colors.length, "a user's first channels get different colours");

    const withSubscribers = await hamlet.get('/users/me/subscriptions', { include_subscribers: true });
    const bySubscribed = Object.fromEntries(withSubscribers.body.subscriptions.map((s: any) => [s.name, s.subscribers]));
    t.same(bySubscribed, { Denmark: [1, 2, 3, 4, 5, 6, 7], Verona: [1, 2, 3, 4, 5, 6, 7, 8], general: [1, 2, 3, 4, 5, 6, 7] });
    const guest = await polonius.get('/users/me/subscriptions', { include_subscribers: true });
    t.same(guest.body.subscriptions.map((s: any) => [s.name, s.subscribers]), [['Verona', [1, 2, 3, 4, 5, 6, 7, 8]]]);
    const bad = await hamlet.get('/users/me/subscriptions', { include_subscribers: 'yes' });
    t.same([bad.status, bad.body.msg], [400, 'include_subscribers is not valid JSON']);
  });

  t.test('POST /users/me/subscriptions: subscribing to existing channels', async (t) => {
    const { server, shiva, hamlet, polonius } = await world(t);
    const first = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }, { name: ' denmark ' }] });
    t.equal(first.status, 200);
    t.same(first.body, { result: 'success', msg: '', subscribed: { 4: ['Scotland'] }, already_subscribed: { 4: ['Denmark'] } }, 'names are stripped and matched case-insensitively');
    t.ok(server.services.subscriptions.isSubscribed(4, SCOTLAND));
    const again = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
    t.same(again.body.subscribed, {});
    t.same(again.body.already_subscribed, { 4: ['Scotland'] });
    const scotland = (await hamlet.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions.find((s: any) => s.name === 'Scotland');
    t.same(scotland.subscribers, [4, 5, 6]);
    t.equal(scotland.subscriber_count, 3);

    const guest = await polonius.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
    t.same([guest.status, guest.body.code, guest.body.msg], [400, 'BAD_REQUEST', 'Not allowed for guest users']);

    const privateOne = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }] });
    t.same([privateOne.status, privateOne.body.msg], [400, 'Unable to access channel (core team).']);
    const lenient = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }, { name: 'Verona' }], authorization_errors_fatal: false });
    t.same(lenient.body, { result: 'success', msg: '', subscribed: {}, already_subscribed: { 4: ['Verona'] }, unauthorized: ['core team'] });
    t.notOk(server.services.subscriptions.isSubscribed(4, CORE_TEAM));
    const adminToo = await shiva.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }] });
    t.equal(adminToo.body.msg, 'Unable to access channel (core team).', 'a moderator cannot join a private channel either');

    const missing = await hamlet.post('/users/me/subscriptions', {});
    t.same([missing.body.code, missing.body.msg], ['REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument"]);
    const noName = await hamlet.post('/users/me/subscriptions', { subscriptions: [{}] });
    t.equal(noName.status, 400);
  });

  t.test('POST /users/me/subscriptions: creating channels', async (t) => {
    const { server, org, iago, hamlet, othello, cordelia, polonius } = await world(t);
    const systemGroups = org.realm.systemGroups;
    const created = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: '  Elsinore  ', description: 'The castle\nof Denmark' }] });
    t.same(created.body, { result: 'success', msg: '', subscribed: { 4: ['Elsinore'] }, already_subscribed: {} });
    const elsinore = org.channels.byName('elsinore')!;
    t.ok(elsinore, 'the channel exists, named without the spaces');
    const stream = (await othello.get(`/streams/${elsinore.id}`)).body.stream;
    t.match(stream, {
      stream_id: elsinore.id, name: 'Elsinore', description: 'The castle of Denmark', invite_only: false,
      history_public_to_subscribers: true, creator_id: 4, subscriber_count: 1, is_archived: false, first_message_id: null,
      can_administer_channel_group: { direct_members: [4], direct_subgroups: [] },
      can_remove_subscribers_group: systemGroups['role:administrators'], can_send_message_group: systemGroups['role:everyone'],
      topics_policy: 'inherit',
    });
    t.equal(stream.rendered_description, '<p>The castle of Denmark</p>', 'newlines in the description become spaces');
    t.ok(names((await othello.get('/streams')).body.streams).includes('Elsinore'), 'public: everyone sees it');
    t.notOk(names((await polonius.get('/streams')).body.streams).includes('Elsinore'), 'but not guests');

    const colored = await cordelia.post('/users/me/subscriptions', { subscriptions: [{ name: 'Dover', color: '#123abc' }] });
    t.same(colored.body.subscribed, { 6: ['Dover'] });
    const dover = (await cordelia.get('/users/me/subscriptions')).body.subscriptions.find((s: any) => s.name === 'Dover');
    t.equal(dover.color, '#123abc', 'an explicit colour wins over the palette');
    const badColor = await cordelia.post('/users/me/subscriptions', { subscriptions: [{ name: 'Calais', color: 'red' }] });
    t.same([badColor.status, badColor.body.code], [400, 'BAD_REQUEST']);
    t.match(badColor.body.msg, /^subscriptions\[0\]\["color"\]/);
    t.notOk(org.channels.byName('Calais'), 'nothing is created by a refused request');

    const empty = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: '   ' }] });
    t.same([empty.status, empty.body.msg], [400, "Channel name can't be empty."]);
    const long = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(61) }] });
    t.equal(long.body.msg, 'Channel name too long (limit: 60 characters).');
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'x'.repeat(60) }] })).status, 200, '60 characters are fine');
    const control = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'ab\u0007c' }] });
    t.equal(control.body.msg, 'Invalid character in channel name, at position 3.');
    const description = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Wittenberg', description: 'x'.repeat(1025) }] });
    t.same([description.status, description.body.msg], [400, 'subscriptions[0]["description"] is too long (limit: 1024 characters)']);
    t.notOk(org.channels.byName('Wittenberg'));

    const notAdmin = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Norway' }], is_default_stream: true });
    t.same([notAdmin.status, notAdmin.body.msg], [400, 'Insufficient permission'], 'only administrators create default channels');
    const privateDefault = await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Norway' }], is_default_stream: true, invite_only: true });
    t.equal(privateDefault.body.msg, 'A default channel cannot be private.');
    const defaultOne = await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Norway' }], is_default_stream: true });
    t.equal(defaultOne.status, 200);
    const norway = (await hamlet.get('/streams', { include_default: true })).body.streams.find((s: any) => s.name === 'Norway');
    t.equal(norway.is_default, true);

    await setRealm(server, { can_create_public_channel_group: systemGroups['role:administrators'] });
    const refused = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Poland' }] });
    t.same([refused.status, refused.body.msg], [400, 'Insufficient permission'], 'can_create_public_channel_group');
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] })).status, 200, 'joining an existing one is still fine');
    t.equal((await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Poland' }] })).status, 200);
    await setRealm(server, { can_create_public_channel_group: systemGroups['role:members'] });
  });

  t.test('POST /users/me/subscriptions with invite_only: private channels', async (t) => {
    const { server, org, iago, shiva, hamlet, othello } = await world(t);
    const systemGroups = org.realm.systemGroups;
    const created = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Rosencrantz' }], invite_only: true });
    t.same(created.body.subscribed, { 4: ['Rosencrantz'] });
    const channel = org.channels.byName('Rosencrantz')!;
    const mine = (await hamlet.get(`/streams/${channel.id}`)).body.stream;
    t.match(mine, { invite_only: true, history_public_to_subscribers: false, creator_id: 4 }, 'private channels do not share history unless asked');

    t.notOk(names((await othello.get('/streams')).body.streams).includes('Rosencrantz'), 'invisible to non-subscribers');
    t.notOk(names((await othello.get('/streams', { include_all: true })).body.streams).includes('Rosencrantz'));
    const byId = await othello.get(`/streams/${channel.id}`);
    t.same([byId.status, byId.body.msg], [400, 'Invalid channel ID']);
    const byName = await othello.get('/get_stream_id', { stream: 'Rosencrantz' });
    t.same([byName.status, byName.body.msg], [400, "Invalid channel name 'Rosencrantz'"]);
    const topics = await othello.get(`/users/me/${channel.id}/topics`);
    t.same([topics.status, topics.body.msg], [400, 'Invalid channel ID']);

    t.notOk(names((await iago.get('/streams')).body.streams).includes('Rosencrantz'), 'not even admins see it by default');
    t.ok(names((await iago.get('/streams', { include_all: true })).body.streams).includes('Rosencrantz'), 'admins see that it exists');
    t.equal((await iago.get(`/streams/${channel.id}`)).body.stream.name, 'Rosencrantz');
    t.notOk(names((await shiva.get('/streams', { include_all: true })).body.streams).includes('Rosencrantz'), 'moderators do not');
    const subscribersForAdmin = (await iago.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions.map((s: any) => s.name);
    t.notOk(subscribersForAdmin.includes('Rosencrantz'));

    const shared = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Guildenstern' }], invite_only: true, history_public_to_subscribers: true });
    t.equal(shared.status, 200);
    t.equal((await hamlet.get(`/streams/${org.channels.byName('Guildenstern')!.id}`)).body.stream.history_public_to_subscribers, true);

    await setRealm(server, { can_create_private_channel_group: systemGroups['role:administrators'] });
    const refused = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Ophelia' }], invite_only: true });
    t.same([refused.status, refused.body.msg], [400, 'Insufficient permission'], 'can_create_private_channel_group');
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Ophelia' }] })).status, 200, 'a public one is still allowed');
    await setRealm(server, { can_create_private_channel_group: systemGroups['role:members'] });
  });

  t.test('POST /users/me/subscriptions with principals', async (t) => {
    const { server, org, iago, shiva, hamlet, othello, polonius } = await world(t);
    const systemGroups = org.realm.systemGroups;
    const byEmail = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }], principals: ['prospero@example.com', 'othello@example.com'] });
    t.same(byEmail.body.subscribed, { 7: ['Scotland'] });
    t.same(byEmail.body.already_subscribed, { 5: ['Scotland'] });
    const byId = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore' }], principals: [5, 6] });
    t.same(byId.body.subscribed, { 5: ['Elsinore'], 6: ['Elsinore'] });
    t.ok(server.services.subscriptions.isSubscribed(5, org.channels.byName('Elsinore')!.id));

    const created = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Inverness' }], principals: [5] });
    t.same(created.body.subscribed, { 5: ['Inverness'] }, 'with principals, the creator is not subscribed unless listed');
    const inverness = org.channels.byName('Inverness')!;
    t.notOk(server.services.subscriptions.isSubscribed(4, inverness.id));
    t.equal((await othello.get(`/streams/${inverness.id}`)).body.stream.creator_id, 4);

    const guestAdded = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: ['polonius@example.com'] });
    t.same(guestAdded.body.subscribed, { 8: ['Denmark'] }, 'a member may subscribe a guest to a public channel');
    t.ok(names((await polonius.get('/streams')).body.streams).includes('Denmark'), 'the guest now sees it');
    t.equal((await polonius.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id, DENMARK);

    const nobody = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: ['ghost@example.com'] });
    t.same([nobody.status, nobody.body.msg], [400, 'No such user']);
    const badId = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [999] });
    t.equal(badId.body.msg, 'No such user');
    const bot = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [9] });
    t.equal(bot.body.msg, 'No such user', 'system bots cannot be subscribed');

    const intoPrivate = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [5] });
    t.equal(intoPrivate.body.msg, 'Unable to access channel (core team).', 'nor into a private channel one cannot reach');
    const adminIntoPrivate = await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: ['shiva@example.com'] });
    t.same(adminIntoPrivate.body.subscribed, { 3: ['core team'] }, 'a subscriber of a private channel may add others');
    t.ok(names((await shiva.get('/streams')).body.streams).includes('core team'));

    await setRealm(server, { can_add_subscribers_group: systemGroups['role:administrators'] });
    const refused = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }, { name: 'Scotland' }], principals: [8] });
    t.same([refused.status, refused.body.msg], [400, 'Insufficient permission'], 'can_add_subscribers_group');
    t.notOk(server.services.subscriptions.isSubscribed(8, SCOTLAND), 'nobody was subscribed');
    const self = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], principals: [4] });
    t.equal(self.status, 200, 'naming only oneself is not subscribing others');
    const newOne = await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Birnam' }], principals: [4, 7] });
    t.same(newOne.body.subscribed, { 4: ['Birnam'], 7: ['Birnam'] }, 'others may always be added to a channel one creates');
    const admin = await iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'Birnam' }], principals: [6] });
    t.same(admin.body.subscribed, { 6: ['Birnam'] }, 'administrators may');
    await setRealm(server, { can_add_subscribers_group: systemGroups['role:members'] });
  });

  t.test('DELETE /users/me/subscriptions', async (t) => {
    const { server, org, iago, hamlet, cordelia } = await world(t);
    // The channels the subscribing subtests leave behind: Inverness (othello only), prospero in Scotland,
    // Birnam (hamlet, prospero, cordelia) and the private Rosencrantz (hamlet).
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Inverness' }], principals: [5] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }], principals: [7] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Birnam' }], principals: [4, 6, 7] })).status, 200);
    t.equal((await hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Rosencrantz' }], invite_only: true })).status, 200);
    const before = (await cordelia.get('/users/me/subscriptions')).body.subscriptions.find((s: any) => s.name === 'Scotland').color;
    const removed = await cordelia.delete('/users/me/subscriptions', { subscriptions: ['Scotland', 'Inverness'] });
    t.equal(removed.status, 200);
    t.same(removed.body, { result: 'success', msg: '', removed: ['Scotland'], not_removed: ['Inverness'] });
    t.notOk(server.services.subscriptions.isSubscribed(6, SCOTLAND));
    t.notOk(names((await cordelia.get('/users/me/subscriptions')).body.subscriptions).includes('Scotland'));
    t.equal(server.services.actors.peek(subscriptionsKind, '6')!.context.channels[SCOTLAND].active, false, 'the actor keeps the subscription, inactive');
    t.ok(names((await cordelia.get('/streams')).body.streams).includes('Scotland'), 'a public channel is still listed');

    const back = await cordelia.post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] });
    t.same(back.body.subscribed, { 6: ['Scotland'] });
    const after = (await cordelia.get('/users/me/subscriptions')).body.subscriptions.find((s: any) => s.name === 'Scotland').color;
    t.equal(after, before, 'settings survive unsubscribing');

    const missing = await cordelia.delete('/users/me/subscriptions', { subscriptions: ['Atlantis', 'Scotland', 'Lemuria'] });
    t.same([missing.status, missing.body.msg], [400, 'Channel(s) (Atlantis, Lemuria) do not exist']);
    t.ok(server.services.subscriptions.isSubscribed(6, SCOTLAND), 'nothing removed');

    const others = await hamlet.delete('/users/me/subscriptions', { subscriptions: ['Scotland'], principals: ['cordelia@example.com'] });
    t.same([others.status, others.body.msg], [400, 'Insufficient permission'], 'members cannot remove others');
    const byAdmin = await iago.delete('/users/me/subscriptions', { subscriptions: ['Scotland', 'Birnam'], principals: [6, 7] });
    t.same(byAdmin.body, { result: 'success', msg: '', removed: ['Scotland', 'Scotland', 'Birnam', 'Birnam'], not_removed: [] }, 'one entry per user and channel');
    t.notOk(server.services.subscriptions.isSubscribed(7, SCOTLAND));

    const privateLeft = await hamlet.delete('/users/me/subscriptions', { subscriptions: ['Rosencrantz'] });
    t.same(privateLeft.body.removed, ['Rosencrantz']);
    const channel = org.channels.byName('Rosencrantz')!;
    const gone = await hamlet.get(`/streams/${channel.id}`);
    t.equal(gone.body.msg, 'Invalid channel ID', 'a private channel one left is invisible again');
  });

  t.test('PATCH /users/me/subscriptions: the legacy add and delete', async (t) => {
    const { server, prospero } = await world(t);
    const removed = await prospero.patch('/users/me/subscriptions', { delete: ['Denmark'] });
    t.same(removed.body, { result: 'success', msg: '', removed: ['Denmark'], not_removed: [] });
    t.notOk(server.services.subscriptions.isSubscribed(7, DENMARK));
    const both = await prospero.patch('/users/me/subscriptions', { add: [{ name: 'Denmark' }], delete: ['general'] });
    t.same(both.body, { result: 'success', msg: '', subscribed: { 7: ['Denmark'] }, already_subscribed: {}, removed: ['general'], not_removed: [] });
    t.ok(server.services.subscriptions.isSubscribed(7, DENMARK));
    t.notOk(server.services.subscriptions.isSubscribed(7, GENERAL));
    const nothing = await prospero.patch('/users/me/subscriptions', {});
    t.same([nothing.status, nothing.body.msg], [400, 'Nothing to do. Specify at least one of "add" or "delete".']);
    const empty = await prospero.patch('/users/me/subscriptions', { add: [], delete: [] });
    t.equal(empty.body.msg, 'Nothing to do. Specify at least one of "add" or "delete".');
    const missing = await prospero.patch('/users/me/subscriptions', { delete: ['Atlantis'] });
    t.equal(missing.body.msg, 'Channel(s) (Atlantis) do not exist');
    await prospero.patch('/users/me/subscriptions', { add: [{ name: 'general' }] });
    t.ok(server.services.subscriptions.isSubscribed(7, GENERAL));
  });
});
