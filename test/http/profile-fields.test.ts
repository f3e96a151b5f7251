/**
 * Black-box tests of custom profile fields: /realm/profile_fields (create, list, change, reorder,
 * delete; administrators only), the rules of each type and of the profile summary, values through
 * /users/me/profile_data and an administrator's PATCH /users/{id}, how GET /users shows them, the
 * events on an administrator's queue, the register state, and all of it after a restart.
 */
import { test } from 'tap';
import type { Api } from '../helpers/client.js';
import { clientFor } from '../helpers/server.js';
import { HAMLET, IAGO, OTHELLO, register, take } from '../helpers/events.js';
import { error } from '../helpers/messages.js';
import { world } from '../helpers/world.js';

const NOT_ADMIN = [400, 'BAD_REQUEST', 'Must be an organization administrator'];
const bad = (msg: string) => [400, 'BAD_REQUEST', msg];

async function create(api: Api, params: Record<string, unknown>): Promise<number> {
  const response = await api.post('/realm/profile_fields', params);
  if (response.status !== 200) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

const fields = async (api: Api) => (await api.get('/realm/profile_fields')).body.custom_fields as any[];
const profileOf = async (api: Api, userId: number) => (await api.get(`/users/${userId}`, { include_custom_profile_fields: true })).body.user.profile_data;

test('custom profile fields', async (t) => {
  t.test('create and list, with the custom_profile_fields event on another queue', async (t) => {
    const { desdemona, iago, hamlet, othello } = await world(t);
    const watcher = await register(desdemona, { event_types: ['custom_profile_fields'] });
    const phone = await create(iago, { name: '  Phone  ', hint: 'Your number', field_type: 1, display_in_profile_summary: true });
    const editor = await create(iago, {
      name: 'Favorite editor', field_type: 3, required: true, editable_by_user: false,
      field_data: { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } },
    });
    const github = await create(iago, { field_type: 7, field_data: { subtype: 'github' } });
    const listed = await fields(hamlet);
    t.same(listed, [
      { id: phone, name: 'Phone', type: 1, hint: 'Your number', field_data: '', order: phone, required: false, editable_by_user: true, display_in_profile_summary: true },
      { id: editor, name: 'Favorite editor', type: 3, hint: '', field_data: '{"vim":{"text":"Vim","order":"1"},"emacs":{"text":"Emacs","order":"2"}}', order: editor, required: true, editable_by_user: false },
      { id: github, name: 'GitHub', type: 7, hint: 'Enter your GitHub username', field_data: '{"subtype":"github"}', order: github, required: false, editable_by_user: true },
    ], 'everyone reads them, in order; a built-in external account takes its name and hint');
    const events = await take(watcher);
    t.equal(events.length, 3, 'one event per change');
    t.same(events[2].fields, listed, 'each event carries every field');
    t.same(error(await hamlet.post('/realm/profile_fields', { name: 'Mine', field_type: 1 })), NOT_ADMIN);
    t.same(error(await othello.patch(`/realm/profile_fields/${phone}`, { name: 'x' })), NOT_ADMIN);
    t.same(error(await othello.delete(`/realm/profile_fields/${phone}`)), NOT_ADMIN);
    t.same(error(await othello.patch('/realm/profile_fields', { order: [editor, phone, github] })), NOT_ADMIN);
    const state = (await hamlet.post('/register', { fetch_event_types: ['custom_profile_fields'] })).body;
    t.same(state.custom_profile_fields, listed, 'register state');
    t.same(state.custom_profile_field_types.SELECT, { id: 3, name: 'List of options' });
  });

  t.test('definition rules', async (t) => {
    const { iago } = await world(t);
    const post = async (params: Record<string, unknown>) => error(await iago.post('/realm/profile_fields', params));
    t.same(await post({ name: ' ', field_type: 1 }), bad('Label cannot be blank.'));
    t.same(await post({ name: 'x'.repeat(41), field_type: 1 }), bad('name is too long (limit: 40 characters)'));
    t.same(await post({ name: 'Hint', hint: 'h'.repeat(81), field_type: 1 }), bad('hint is too long (limit: 80 characters)'));
    t.same(await post({ name: 'Odd', field_type: 9 }), bad('Invalid field type.'));
    t.same(await post({ name: 'Choice', field_type: 3 }), bad('Field must have at least one choice.'));
    t.same(await post({ name: 'Choice', field_type: 3, field_data: { a: 'A' } }), bad('field_data["a"] is not a dict'));
    t.same(await post({ name: 'Choice', field_type: 3, field_data: { a: { text: 'A' } } }), bad('order key is missing from field_data["a"]'));
    t.same(await post({ name: 'Choice', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }), bad('Field must not have duplicate choices.'));
    t.same(await post({ name: 'Account', field_type: 7, field_data: { subtype: 'myspace' } }), bad('Invalid external account type'));
    t.same(await post({ name: 'Account', field_type: 7, field_data: { subtype: 'custom' } }), bad('Custom external account must define URL pattern'));
    t.same(await post({ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://example.com/' } }), bad("URL pattern must contain '%(username)s'."));
    t.same(await post({ name: 'Account', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url %(username)s' } }), bad('field_data["url_pattern"] is not a URL'));
    t.equal((await iago.post('/realm/profile_fields', { name: 'Forge', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://forge.example.com/%(username)s' } })).status, 200);
    t.same(await post({ name: 'Forge', field_type: 1 }), bad('A field with that label already exists.'));
    t.same(await post({ name: 'Biography', field_type: 2, display_in_profile_summary: true }), bad('Field type not supported for display in profile summary.'));
    t.same(await post({ name: 'Mentor', field_type: 6, display_in_profile_summary: true }), bad('Field type not supported for display in profile summary.'));
    await create(iago, { name: 'One', field_type: 1, display_in_profile_summary: true });
    const two = await create(iago, { name: 'Two', field_type: 8, display_in_profile_summary: true });
    t.same(await post({ name: 'Three', field_type: 1, display_in_profile_summary: true }), bad('Only 2 custom profile fields can be displayed in the profile summary.'));
    const three = await create(iago, { name: 'Three', field_type: 1 });
    t.same(error(await iago.patch(`/realm/profile_fields/${three}`, { display_in_profile_summary: true })), bad('Only 2 custom profile fields can be displayed in the profile summary.'));
    t.equal((await iago.patch(`/realm/profile_fields/${two}`, { display_in_profile_summary: true })).status, 200, 'a field already in the summary may say so again');
    t.same(error(await iago.patch('/realm/profile_fields/999', { name: 'x' })), bad('Field id 999 not found.'));
    t.same(error(await iago.delete('/realm/profile_fields/999')), bad('Field id 999 not found.'));
  });

  t.test('change, reorder, delete', async (t) => {
    const { iago, hamlet } = await world(t);
    const a = await create(iago, { name: 'A', field_type: 1 });
    const b = await create(iago, { name: 'B', field_type: 4 });
    const github = await create(iago, { field_type: 7, field_data: { subtype: 'github' } });
    t.equal((await iago.patch(`/realm/profile_fields/${a}`, { name: ' Alpha ', hint: 'First', required: true, editable_by_user: false })).status, 200);
    t.same(error(await iago.patch(`/realm/profile_fields/${a}`, { name: 'B' })), bad('A field with that label already exists.'));
    t.same(error(await iago.patch(`/realm/profile_fields/${github}`, { name: 'Git' })), bad('Default custom field cannot be updated.'));
    t.equal((await iago.patch(`/realm/profile_fields/${github}`, { display_in_profile_summary: true })).status, 200, 'but its summary setting may change');
    t.same(error(await iago.patch('/realm/profile_fields', { order: [b, a] })), bad('Invalid order mapping.'));
    t.equal((await iago.patch('/realm/profile_fields', { order: [github, b, a] })).status, 200);
    const listed = await fields(hamlet);
    t.same(listed.map((f) => [f.id, f.order]), [[github, 0], [b, 1], [a, 2]], 'listed in the new order');
    t.match(listed[2], { name: 'Alpha', hint: 'First', required: true, editable_by_user: false });
    t.equal((await hamlet.patch('/users/me/profile_data', { data: [{ id: b, value: '2000-01-31' }] })).status, 200);
    t.equal((await iago.delete(`/realm/profile_fields/${b}`)).status, 200);
    t.same((await fields(hamlet)).map((f) => f.id), [github, a]);
    t.same(await profileOf(iago, HAMLET), {}, "the field's values went with it");
  });

  t.test('values: rules per type, rendering, events, GET /users', async (t) => {
    const { desdemona, iago, hamlet, othello } = await world(t);
    const short = await create(iago, { name: 'Motto', field_type: 1 });
    const long = await create(iago, { name: 'Biography', field_type: 2 });
    const select = await create(iago, { name: 'Editor', field_type: 3, field_data: { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } } });
    const date = await create(iago, { name: 'Birthday', field_type: 4 });
    const link = await create(iago, { name: 'Website', field_type: 5 });
    const person = await create(iago, { name: 'Mentor', field_type: 6 });
    const account = await create(iago, { field_type: 7, field_data: { subtype: 'github' } });
    const pronouns = await create(iago, { name: 'Pronouns', field_type: 8 });
    const locked = await create(iago, { name: 'Badge', field_type: 1, editable_by_user: false });
    const set = async (api: Api, id: number, value: unknown) => error(await api.patch('/users/me/profile_data', { data: [{ id, value }] }));
    t.same(await set(hamlet, short, 'x'.repeat(51)), bad('Motto is too long (limit: 50 characters)'));
    t.same(await set(hamlet, long, 'x'.repeat(501)), bad('Biography is too long (limit: 500 characters)'));
    t.same(await set(hamlet, select, 'nano'), bad("'nano' is not a valid choice for 'Editor'."));
    t.same(await set(hamlet, date, '2001-02-30'), bad('Birthday is not a date'));
    t.same(await set(hamlet, date, 'yesterday'), bad('Birthday is not a date'));
    t.same(await set(hamlet, link, 'not a link'), bad('Website is not a URL'));
    t.same(await set(hamlet, person, [999]), bad('Invalid user ID: 999'));
    t.same(await set(hamlet, person, 'Othello'), bad('User IDs is not a list'));
    t.same(await set(hamlet, short, [OTHELLO]), bad('Motto is not a string'));
    t.same(await set(hamlet, 999, 'x'), bad('Field id 999 not found.'));
    t.same(await set(hamlet, locked, 'mine'), bad('You are not allowed to change this field. Contact an administrator to update it.'));
    t.same(await profileOf(iago, HAMLET), {}, 'a refused request sets nothing');

    const watcher = await register(desdemona, { event_types: ['realm_user'] });
    const response = await hamlet.patch('/users/me/profile_data', {
      data: [
        { id: short, value: 'To be **or** not' }, { id: long, value: 'Prince of *Denmark*' }, { id: select, value: 'vim' },
        { id: date, value: '1600-01-01' }, { id: link, value: 'https://hamlet.example.com/' }, { id: person, value: [OTHELLO] },
        { id: account, value: 'hamlet' }, { id: pronouns, value: 'he/him' },
      ],
    });
    t.equal(response.status, 200);
    const profile = await profileOf(othello, HAMLET);
    t.same(profile, {
      [short]: { value: 'To be **or** not', rendered_value: '<p>To be <strong>or</strong> not</p>' },
      [long]: { value: 'Prince of *Denmark*', rendered_value: '<p>Prince of <em>Denmark</em></p>' },
      [select]: { value: 'vim' },
      [date]: { value: '1600-01-01' },
      [link]: { value: 'https://hamlet.example.com/' },
      [person]: { value: `[${OTHELLO}]` },
      [account]: { value: 'hamlet' },
      [pronouns]: { value: 'he/him' },
    }, 'values, with rendered_value for the Markdown types');
    const events = await take(watcher);
    t.equal(events.length, 8, 'one realm_user event per value');
    t.same(events[0].person, { user_id: HAMLET, custom_profile_field: { id: short, value: 'To be **or** not', rendered_value: '<p>To be <strong>or</strong> not</p>' } });
    t.same(events[2].person, { user_id: HAMLET, custom_profile_field: { id: select, value: 'vim' } });
    t.equal((await hamlet.patch('/users/me/profile_data', { data: [{ id: select, value: 'vim' }] })).status, 200);
    t.same(await take(watcher), [], 'no event when nothing changes');

    const members = (await othello.get('/users', { include_custom_profile_fields: true })).body.members;
    t.same(members.find((m: any) => m.user_id === HAMLET).profile_data, profile, 'GET /users includes them when asked');
    t.notOk('profile_data' in (await othello.get('/users')).body.members[0], 'and not otherwise');
    t.notOk('profile_data' in (await othello.get(`/users/${HAMLET}`)).body.user);

    t.equal((await hamlet.delete('/users/me/profile_data', { data: [pronouns, date] })).status, 200);
    t.same((await take(watcher)).map((e) => e.person), [
      { user_id: HAMLET, custom_profile_field: { id: pronouns, value: null } },
      { user_id: HAMLET, custom_profile_field: { id: date, value: null } },
    ]);
    t.notOk(pronouns in (await profileOf(othello, HAMLET)));
    t.same(error(await hamlet.delete('/users/me/profile_data', { data: [locked] })), bad('You are not allowed to change this field. Contact an administrator to update it.'));
    t.equal((await hamlet.patch('/users/me/profile_data', { data: [{ id: short, value: '' }] })).status, 200, 'an empty value clears the field');
    t.notOk(short in (await profileOf(othello, HAMLET)));
    t.same((await take(watcher)).map((e) => e.person), [{ user_id: HAMLET, custom_profile_field: { id: short, value: null } }]);

    // Removing an option clears the values that named it.
    t.equal((await iago.patch(`/realm/profile_fields/${select}`, { field_data: { emacs: { text: 'Emacs', order: '1' } } })).status, 200);
    t.same((await take(watcher)).map((e) => e.person), [{ user_id: HAMLET, custom_profile_field: { id: select, value: null } }]);
    t.notOk(select in (await profileOf(othello, HAMLET)));
  });

  t.test("an administrator's profile_data in PATCH /users/{id}", async (t) => {
    const { desdemona, iago, hamlet, othello } = await world(t);
    const locked = await create(iago, { name: 'Badge', field_type: 1, editable_by_user: false });
    const date = await create(iago, { name: 'Birthday', field_type: 4 });
    const watcher = await register(desdemona, { event_types: ['realm_user'] });
    t.equal((await iago.patch(`/users/${HAMLET}`, { profile_data: [{ id: locked, value: 'Gold' }, { id: date, value: '1600-01-01' }] })).status, 200, 'administrators change fields users may not');
    t.same((await take(watcher)).map((e) => e.person.custom_profile_field.id), [locked, date]);
    t.same(error(await iago.patch(`/users/${HAMLET}`, { profile_data: [{ id: date, value: 'soon' }] })), bad('Birthday is not a date'));
    t.same(error(await iago.patch(`/users/${HAMLET}`, { full_name: 'Prince Hamlet', profile_data: [{ id: date, value: 'soon' }] })), bad('Birthday is not a date'));
    t.equal((await profileOf(iago, HAMLET) as any)[date].value, '1600-01-01');
    t.equal((await iago.get(`/users/${HAMLET}`)).body.user.full_name, 'King Hamlet', 'a refused part leaves the rest unchanged');
    t.equal((await iago.patch(`/users/${HAMLET}`, { profile_data: [{ id: locked, value: null }] })).status, 200, 'null clears');
    t.same((await take(watcher)).map((e) => e.person), [{ user_id: HAMLET, custom_profile_field: { id: locked, value: null } }]);
    t.same(error(await hamlet.patch(`/users/${OTHELLO}`, { profile_data: [{ id: date, value: '1600-01-01' }] })), bad('Insufficient permission'));
    t.same(error(await iago.patch(`/users/${IAGO}`, { profile_data: [{ id: 999, value: 'x' }] })), bad('Field id 999 not found.'));
  });

  t.test('after a restart', async (t) => {
    const w = await world(t);
    const motto = await create(w.iago, { name: 'Motto', field_type: 1, display_in_profile_summary: true });
    const editor = await create(w.iago, { name: 'Editor', field_type: 3, field_data: { vim: { text: 'Vim', order: '1' } } });
    await w.iago.patch('/realm/profile_fields', { order: [editor, motto] });
    await w.hamlet.patch('/users/me/profile_data', { data: [{ id: motto, value: 'Words, *words*' }, { id: editor, value: 'vim' }] });
    const before = await fields(w.hamlet);
    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const hamlet = clientFor(restarted, 'hamlet@example.com');
    t.same(await fields(hamlet), before, 'the fields and their order');
    t.same(await profileOf(hamlet, HAMLET), {
      [motto]: { value: 'Words, *words*', rendered_value: '<p>Words, <em>words</em></p>' },
      [editor]: { value: 'vim' },
    }, 'the values');
    const third = await create(clientFor(restarted, 'iago@example.com'), { name: 'Third', field_type: 1 });
    t.ok(third > editor, 'ids go on from where they were');
  });
});
