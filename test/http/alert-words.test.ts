/**
 * Black-box tests of alert words: GET/POST/DELETE /users/me/alert_words (Zulip's rules: words keep
 * their case but are compared and matched without it), the
 * `alert_words` event and register state, and the `has_alert_word` flag on messages that contain
 * a user's word (whole words only), on sending and on editing, and through `is:alerted`.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take, HAMLET } from '../helpers/events.js';
import { messageWorld, send, sendDm, flagsOf, fetchIds, error, NEWEST } from '../helpers/messages.js';

test('alert words', async (t) => {
  t.test('the list: trimmed, without duplicates whatever their case; events on every queue; after a restart', async (t) => {
    const { server, hamlet, othello } = await messageWorld(t);
    const mine = await register(hamlet, { event_types: ['alert_words'] });
    const peer = await register(othello, { event_types: ['alert_words'] });
    t.same((await hamlet.get('/users/me/alert_words')).body.alert_words, []);
    const added = await hamlet.post('/users/me/alert_words', { alert_words: [' Natural ', 'illustrious', 'NATURAL', '', '  ', 'big deal'] });
    t.equal(added.status, 200);
    t.same(added.body.alert_words, ['NATURAL', 'illustrious', 'big deal'], 'the whole list comes back; a word keeps the last spelling given');
    t.match(await take(mine), [{ type: 'alert_words', alert_words: ['NATURAL', 'illustrious', 'big deal'] }]);
    t.same(await take(peer), [], "nobody else's clients hear of it");
    t.same((await hamlet.post('/users/me/alert_words', { alert_words: ['Natural'] })).body.alert_words, ['NATURAL', 'illustrious', 'big deal'], 'adding a word again, in any case, changes nothing');
    await take(mine);
    const removed = await hamlet.delete('/users/me/alert_words', { alert_words: ['ILLUSTRIOUS', 'never added'] });
    t.same(removed.body.alert_words, ['NATURAL', 'big deal'], 'removal ignores case and unknown words');
    t.match(await take(mine), [{ type: 'alert_words', alert_words: ['NATURAL', 'big deal'] }]);
    t.same((await hamlet.post('/register', { fetch_event_types: ['alert_words'] })).body.alert_words, ['NATURAL', 'big deal']);

    const restarted = await server.restart();
    t.teardown(() => restarted.destroy());
    const again = clientFor(restarted, 'hamlet@example.com');
    t.same((await again.get('/users/me/alert_words')).body.alert_words, ['NATURAL', 'big deal'], 'kept across a restart');
    t.same((await again.post('/register', { fetch_event_types: ['alert_words'] })).body.alert_words, ['NATURAL', 'big deal']);
    await again.post('/users/me/alert_words', { alert_words: ['After'] });
    t.match(await take({ ...mine, api: again }), [{ type: 'alert_words', alert_words: ['NATURAL', 'big deal', 'After'] }], 'a restored queue hears the change');
    const id = await send(clientFor(restarted, 'othello@example.com'), 'Verona', 'words', 'it came AFTER');
    t.ok((await flagsOf(again, id)).includes('has_alert_word'), 'the matcher is rebuilt from the stored words');
  });

  t.test('the rules', async (t) => {
    const { hamlet } = await messageWorld(t);
    t.same(error(await hamlet.post('/users/me/alert_words', { alert_words: ['fine', 'x'.repeat(101)] })), [400, 'BAD_REQUEST', 'alert_words[1] is too long (limit: 100 characters)']);
    t.same((await hamlet.get('/users/me/alert_words')).body.alert_words, [], 'one bad word adds none');
    t.equal((await hamlet.post('/users/me/alert_words', { alert_words: ['y'.repeat(100)] })).status, 200, '100 characters is the limit');
    t.same(error(await hamlet.post('/users/me/alert_words', { alert_words: 'natural' })), [400, 'BAD_REQUEST', 'alert_words is not valid JSON']);
    t.same(error(await hamlet.post('/users/me/alert_words', {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument"]);
  });

  t.test('has_alert_word: whole words, any case, for the recipients who chose them', async (t) => {
    const { hamlet, othello, iago } = await messageWorld(t);
    await hamlet.post('/users/me/alert_words', { alert_words: ['Castle', 'to be'] });
    await othello.post('/users/me/alert_words', { alert_words: ['castle', 'moor'] });
    const queue = await register(hamlet, { event_types: ['message'] });
    const other = await register(hamlet, { event_types: ['message'], narrow: [['is', 'alerted']] });
    const cases: [string, boolean][] = [
      ['The Castle is cold', true],
      ['castle.', true],
      ['(castle)', true],
      ['"castle', true],
      ['castles everywhere', false],
      ['sandcastle', false],
      ['castle-keep', false],
      ['whether TO BE or not', true],
      ['tobe', false],
    ];
    const ids: number[] = [];
    for (const [content, alerted] of cases) {
      const id = await send(iago, 'Verona', 'words', content);
      ids.push(id);
      t.equal((await flagsOf(hamlet, id)).includes('has_alert_word'), alerted, `${JSON.stringify(content)}: ${alerted ? 'alerts' : 'does not alert'}`);
    }
    const events = (await take(queue)).filter((e) => e.type === 'message');
    t.same(events.map((e) => e.flags.includes('has_alert_word')), cases.map(([, alerted]) => alerted), 'the message events carry the flag');
    t.same((await take(other)).map((e) => e.message.id), ids.filter((_, i) => cases[i][1]), 'a queue narrowed to is:alerted gets exactly those');
    t.ok((await flagsOf(othello, ids[0])).includes('has_alert_word'), 'another recipient with the same word is flagged too');
  });

  t.test('recipients only; direct messages; is:alerted; edits', async (t) => {
    const { hamlet, othello, iago } = await messageWorld(t);
    await hamlet.post('/users/me/alert_words', { alert_words: ['castle'] });
    await othello.post('/users/me/alert_words', { alert_words: ['castle'] });
    // Scotland: othello is subscribed, hamlet is not.
    const scotland = await send(iago, 'Scotland', 'words', 'a castle in Scotland');
    t.ok((await flagsOf(othello, scotland)).includes('has_alert_word'));
    t.notOk((await flagsOf(hamlet, scotland)).includes('has_alert_word'), 'someone who did not receive it gets no flag');
    const dm = await sendDm(iago, [HAMLET], 'meet me at the castle');
    t.ok((await flagsOf(hamlet, dm)).includes('has_alert_word'), 'direct messages too');
    const plain = await send(iago, 'Verona', 'words', 'nothing to see');
    t.same(await fetchIds(hamlet, { anchor: NEWEST, num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'alerted' }]) }), [dm], 'is:alerted');

    const queue = await register(hamlet, { event_types: ['update_message'] });
    t.equal((await iago.patch(`/messages/${plain}`, { content: 'now a castle' })).status, 200);
    t.ok((await flagsOf(hamlet, plain)).includes('has_alert_word'), 'an edit that adds the word sets the flag');
    t.match(await take(queue), [{ type: 'update_message', message_id: plain }]);
    t.equal((await iago.patch(`/messages/${plain}`, { content: 'nothing again' })).status, 200);
    t.notOk((await flagsOf(hamlet, plain)).includes('has_alert_word'), 'an edit that removes it clears the flag');
    t.same(await fetchIds(hamlet, { anchor: NEWEST, num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'alerted' }]) }), [dm]);
  });
});
