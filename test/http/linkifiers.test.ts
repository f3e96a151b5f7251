/**
 * Black-box tests of linkifiers (GET/PATCH /realm/linkifiers, POST /realm/filters,
 * PATCH/DELETE /realm/filters/{id}) and code playgrounds (POST /realm/playgrounds,
 * DELETE /realm/playgrounds/{id}): Zulip's validation errors, the renderer and topic_links,
 * the events on other queues, register state, and a restart.
 */
import { test } from 'tap';
import { clientFor } from '../helpers/server.js';
import { register, take } from '../helpers/events.js';
import { VERONA, error, message, messageWorld, send } from '../helpers/messages.js';

const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
const PULLS = { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/pull/{id}' };
const capable = { client_capabilities: { linkifier_url_template: true } };
const withoutIds = (events: any[]) => events.map(({ id: _, ...rest }) => rest);

test('linkifiers: add, render, reorder, update, remove; events and register state; a restart', async (t) => {
  const { iago, hamlet, othello, server } = await messageWorld(t);
  const queue = await register(othello, { event_types: ['realm_linkifiers'], ...capable });
  const legacyQueue = await register(othello, { event_types: ['realm_linkifiers'] });

  const added = await iago.post('/realm/filters', { ...ISSUES, pattern: `  ${ISSUES.pattern} ` });
  t.equal(added.status, 200);
  t.same(Object.keys(added.body).sort(), ['id', 'msg', 'result']);
  const issues = added.body.id as number;
  const pulls = (await iago.post('/realm/filters', PULLS)).body.id as number;
  const listed = [{ pattern: ISSUES.pattern, url_template: ISSUES.url_template, id: issues }, { pattern: PULLS.pattern, url_template: PULLS.url_template, id: pulls }];
  t.same((await hamlet.get('/realm/linkifiers')).body, { result: 'success', msg: '', linkifiers: listed }, 'stripped, in order, for everyone');
  t.same(withoutIds(await take(queue)), [
    { type: 'realm_linkifiers', realm_linkifiers: listed.slice(0, 1) },
    { type: 'realm_linkifiers', realm_linkifiers: listed },
  ]);
  t.same(await take(legacyQueue), [], 'not to clients that do not read URL templates');

  const id = await send(hamlet, VERONA, 'about #7 and zulip/zulip#8', 'see #12, zulip/zulip#34 and `#56`; not a#78');
  const sent = await message(othello, id);
  t.equal(sent.content,
    '<p>see <a href="https://github.com/zulip/zulip/issues/12">#12</a>, <a href="https://github.com/zulip/zulip/pull/34">zulip/zulip#34</a> and <code>#56</code>; not a#78</p>');
  t.same(sent.topic_links, [
    { text: '#7', url: 'https://github.com/zulip/zulip/issues/7' },
    { text: 'zulip/zulip#8', url: 'https://github.com/zulip/zulip/pull/8' },
  ]);
  t.equal((await hamlet.post('/messages/render', { content: '#99' })).body.rendered, '<p><a href="https://github.com/zulip/zulip/issues/99">#99</a></p>');

  t.same((await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [pulls, issues] })).body, { result: 'success', msg: '' });
  t.same((await hamlet.get('/realm/linkifiers')).body.linkifiers.map((l: any) => l.id), [pulls, issues]);
  t.same(withoutIds(await take(queue)), [{ type: 'realm_linkifiers', realm_linkifiers: [listed[1], listed[0]] }]);

  t.equal((await iago.patch(`/realm/filters/${issues}`, { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' })).status, 200);
  t.equal((await hamlet.post('/messages/render', { content: 'T42 and #42' })).body.rendered, '<p><a href="https://trac.example.com/ticket/42">T42</a> and #42</p>');
  t.equal((await message(othello, id)).content, sent.content, 'messages already sent keep their HTML, as in Zulip');
  t.equal((await iago.delete(`/realm/filters/${pulls}`)).status, 200);
  const remaining = [{ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}', id: issues }];
  t.same(withoutIds(await take(queue)).map((e) => e.realm_linkifiers), [[listed[1], remaining[0]], remaining]);
  t.same((await message(othello, id)).topic_links, [], 'topic links follow the linkifiers of now');

  const state = await othello.post('/register', { fetch_event_types: ['realm_linkifiers', 'realm_filters'], ...capable });
  t.same([state.body.realm_linkifiers, state.body.realm_filters], [remaining, []]);
  const legacy = await othello.post('/register', { fetch_event_types: ['realm_linkifiers'] });
  t.same(legacy.body.realm_linkifiers, [], 'empty without the capability');

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  t.same((await clientFor(restarted, 'hamlet@example.com').get('/realm/linkifiers')).body.linkifiers, remaining, 'kept across a restart');
  t.equal((await clientFor(restarted, 'hamlet@example.com').post('/messages/render', { content: 'T1' })).body.rendered, '<p><a href="https://trac.example.com/ticket/1">T1</a></p>');
});

test('linkifiers: Zulip\'s refusals, and nothing changes', async (t) => {
  const { iago, hamlet } = await messageWorld(t);
  const id = (await iago.post('/realm/filters', ISSUES)).body.id as number;
  const refusal = async (params: Record<string, unknown>, path = '/realm/filters', method: 'post' | 'patch' = 'post') => {
    const response = await iago[method](path, params);
    return [response.status, response.body.msg, response.body.errors];
  };
  t.same(await refusal({ pattern: '#(?P<id>[0-9]+', url_template: 'https://x.example.com/{id}' }), [400, 'Bad regular expression: missing ): #(?P<id>[0-9]+', { __all__: ['Bad regular expression: missing ): #(?P<id>[0-9]+'] }]);
  t.same(await refusal({ pattern: 'a(?=b)', url_template: 'https://x.example.com/' }), [400, 'Bad regular expression: invalid perl operator: (?=', { __all__: ['Bad regular expression: invalid perl operator: (?='] }]);
  t.same(await refusal({ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.example.com/{id' }), [400, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }]);
  t.same(await refusal({ pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.example.com/{ticket}' }),
    [400, "Group 'ticket' in URL template is not present in linkifier pattern.", { __all__: ["Group 'ticket' in URL template is not present in linkifier pattern."] }]);
  t.same(await refusal({ pattern: 'T(?P<id>[0-9]+)(?P<x>a)', url_template: 'https://x.example.com/{id}' }),
    [400, "Group 'x' in linkifier pattern is not present in URL template.", { __all__: ["Group 'x' in linkifier pattern is not present in URL template."] }]);
  t.same(await refusal({ pattern: '', url_template: '' }), [400, 'This field cannot be blank.', { pattern: ['This field cannot be blank.'], url_template: ['This field cannot be blank.'] }]);
  t.same(await refusal(ISSUES), [400, 'Realm filter with this Realm and Pattern already exists.', { __all__: ['Realm filter with this Realm and Pattern already exists.'] }]);
  t.same(error(await iago.patch('/realm/filters/999999', ISSUES)), [400, 'BAD_REQUEST', 'Linkifier not found.']);
  t.same(error(await iago.delete('/realm/filters/999999')), [400, 'BAD_REQUEST', 'Linkifier not found.']);
  t.same(error(await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [id, id] })), [400, 'BAD_REQUEST', 'The ordered list must not contain duplicated linkifiers']);
  t.same(error(await iago.patch('/realm/linkifiers', { ordered_linkifier_ids: [] })), [400, 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once']);
  t.same(error(await hamlet.post('/realm/filters', { pattern: 'H(?P<id>[0-9]+)', url_template: 'https://x.example.com/{id}' })), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
  t.same(error(await hamlet.delete(`/realm/filters/${id}`)), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
  t.same((await hamlet.get('/realm/linkifiers')).body.linkifiers, [{ ...ISSUES, id }], 'nothing changed');
});

test('code playgrounds: add, remove, refusals, events, register state, a restart', async (t) => {
  const { iago, hamlet, othello, server } = await messageWorld(t);
  const queue = await register(othello, { event_types: ['realm_playgrounds'] });
  const playground = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };
  const added = await iago.post('/realm/playgrounds', { ...playground, name: ' Python playground ' });
  t.same(Object.keys(added.body).sort(), ['id', 'msg', 'result']);
  const id = added.body.id as number;
  const object = { id, ...playground };
  t.same(withoutIds(await take(queue)), [{ type: 'realm_playgrounds', realm_playgrounds: [object] }]);
  t.same((await othello.post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds, [object]);

  const refusal = async (params: Record<string, unknown>) => {
    const response = await iago.post('/realm/playgrounds', { ...playground, ...params });
    return [response.status, response.body.msg, response.body.errors];
  };
  t.same(await refusal({}), [400, 'Realm playground with this Realm, Pygments language and Name already exists.', { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] }]);
  t.same(await refusal({ name: 'x', url_template: 'https://x.example.com/{code}{more}' }), [400, '"code" should be the only variable present in the URL template', { __all__: ['"code" should be the only variable present in the URL template'] }]);
  t.same(await refusal({ name: 'x', url_template: 'https://x.example.com/' }), [400, 'Missing the required variable "code" in the URL template', { __all__: ['Missing the required variable "code" in the URL template'] }]);
  t.same(await refusal({ name: 'x', url_template: 'https://x.example.com/{code' }), [400, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }]);
  t.same(await refusal({ name: '' }), [400, 'This field cannot be blank.', { name: ['This field cannot be blank.'] }]);
  t.same(await refusal({ pygments_language: 'py<thon>' }), [400, 'Invalid characters in pygments language', undefined]);
  t.same(await refusal({ pygments_language: 'p'.repeat(41) }), [400, 'pygments_language is too long (limit: 40 characters)', undefined]);
  t.same(error(await hamlet.post('/realm/playgrounds', { ...playground, name: 'mine' })), [400, 'BAD_REQUEST', 'Must be an organization administrator']);
  t.same(error(await iago.delete('/realm/playgrounds/999999')), [400, 'BAD_REQUEST', 'Invalid playground']);
  t.same(await take(queue), [], 'no event for a refusal');

  const restarted = await server.restart();
  t.teardown(() => restarted.destroy());
  const again = clientFor(restarted, 'iago@example.com');
  t.same((await again.post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds, [object], 'kept across a restart');
  const after = await register(clientFor(restarted, 'othello@example.com'), { event_types: ['realm_playgrounds'] });
  t.equal((await again.delete(`/realm/playgrounds/${id}`)).status, 200);
  t.same(withoutIds(await take(after)), [{ type: 'realm_playgrounds', realm_playgrounds: [] }]);
});
