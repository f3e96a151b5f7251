/**
 * Incoming webhooks through HTTP: Slack-compatible payloads (JSON and form) and GitHub events,
 * rendered as Zulip's integrations render them, authenticated by the key in the URL, with
 * Zulip's errors; the owner is told of a missing channel; messages reach other queues and
 * survive a restart.
 */
import { test } from 'tap';
import { encodeParams } from '../helpers/client.js';
import { ofType, register, take, HAMLET } from '../helpers/events.js';
import { world, type World } from '../helpers/world.js';

async function hook(w: World, path: string, query: Record<string, unknown>, body: unknown, headers: Record<string, string> = {}) {
  const url = `${w.server.url}/api/v1/external/${path}?${encodeParams(query)}`;
  const json = typeof body !== 'string';
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', ...headers },
    body: json ? JSON.stringify(body) : body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function incomingBot(w: World) {
  const created = await w.hamlet.post('/bots', { full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return created.body as { user_id: number; api_key: string };
}

async function newest(w: World, narrow: unknown[] = []) {
  const response = await w.hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false });
  return response.body.messages.at(-1);
}

const repo = { name: 'public-repo', full_name: 'baxter/public-repo', html_url: 'https://github.com/baxter/public-repo', private: false };
const sender = { login: 'baxter', html_url: 'https://github.com/baxter' };

test('incoming webhooks', async (t) => {
  t.test('slack_incoming: JSON and form payloads, formatting, topics, the owner as fallback', async (t) => {
    const w = await world(t);
    const bot = await incomingBot(w);
    const queue = await register(w.othello, { event_types: ['message'] });
    const sent = await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, { text: 'Hello *world* and _you_, see <https://example.com|the site>', channel: '#alerts' });
    t.same([sent.status, sent.body.result], [200, 'success']);
    const message = await newest(w);
    t.same([message.sender_id, message.subject, message.content, message.client], [bot.user_id, 'alerts', 'Hello **world** and *you*, see [the site](https://example.com)', 'ZulipSlackIncomingWebhook']);
    t.equal(ofType(await take(queue), 'message')[0].message.id, message.id, 'a subscriber\'s queue gets it');

    const blocks = {
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Deploy' } },
        { type: 'section', text: { type: 'mrkdwn', text: 'Done' }, fields: [{ type: 'mrkdwn', text: 'a' }, { type: 'mrkdwn', text: 'b' }, { type: 'mrkdwn', text: 'c' }] },
        { type: 'divider' },
      ],
      attachments: [{ title: 'Build', title_link: 'https://ci.example.com/1', text: 'passed', fields: [{ title: 'Time', value: '3s' }], ts: 1700000000 }],
    };
    const form = `payload=${encodeURIComponent(JSON.stringify(blocks))}`;
    t.equal((await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona', topic: 'ci' }, form)).status, 200);
    const rendered = await newest(w);
    t.equal(rendered.subject, 'ci');
    t.equal(rendered.content, '## Deploy\n\nDone\n\n| | |\n|-|-|\n| a | b |\n| c |  |\n\n----\n\n## [Build](https://ci.example.com/1)\n\npassed\n\n**Time**: 3s\n\n<time:1700000000>');

    t.equal((await hook(w, 'slack_incoming', { api_key: bot.api_key }, { text: 'to the owner' })).status, 200);
    const dm = await newest(w, [{ operator: 'dm', operand: [bot.user_id] }]);
    t.same([dm.type, dm.content, dm.sender_id], ['private', 'to the owner', bot.user_id], 'no channel: a direct message to the bot\'s owner');
    t.equal((await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, { text: '' })).status, 200, 'nothing to say: success, nothing sent');
    t.equal((await newest(w, [{ operator: 'channel', operand: 'Verona' }])).id, rendered.id);

    const restarted = await w.server.restart();
    t.teardown(() => restarted.destroy());
    const after = await fetch(`${restarted.url}/api/v1/external/slack_incoming?api_key=${bot.api_key}&stream=Verona`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"after"}' });
    t.equal(after.status, 200, 'the key works after a restart');
    t.ok(restarted.services.messages.get(message.id), 'messages survive a restart');
  });

  t.test('errors as Zulip answers them', async (t) => {
    const w = await world(t);
    const bot = await incomingBot(w);
    const err = (r: { status: number; body: any }) => [r.status, r.body.code, r.body.msg];
    t.same(err(await hook(w, 'slack_incoming', {}, { text: 'x' })), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'api_key' argument"]);
    t.same(err(await hook(w, 'slack_incoming', { api_key: 'short' }, { text: 'x' })), [401, 'UNAUTHORIZED', 'Malformed API key']);
    t.same(err(await hook(w, 'slack_incoming', { api_key: 'a'.repeat(32) }, { text: 'x' })), [401, 'UNAUTHORIZED', 'Invalid API key']);
    t.same(err(await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, 'payload=not-json')), [400, 'BAD_REQUEST', 'Malformed JSON']);
    t.same(err(await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, '')), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'payload' argument"]);
    t.same(err(await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, { blocks: [{ type: 'nope' }] })), [400, 'BAD_REQUEST', 'Invalid payload["blocks"][0]["type"]']);
    t.same(err(await hook(w, 'github', { api_key: bot.api_key, stream: 'Verona' }, { zen: 'x' })), [400, 'MISSING_HTTP_EVENT_HEADER', "Missing the HTTP event header 'X-GitHub-Event'"]);
    const unsupported = await hook(w, 'github', { api_key: bot.api_key, stream: 'Verona' }, { action: 'created', sender }, { 'x-github-event': 'sponsorship_x' });
    t.same([...err(unsupported), unsupported.body.event_type], [400, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', "The 'sponsorship_x:created' event isn't currently supported by the GitHub webhook; ignoring", 'sponsorship_x:created']);

    const notices = await register(w.hamlet, { event_types: ['message'] });
    t.equal((await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Nowhere' }, { text: 'x' })).status, 200, 'a missing channel is not the sender\'s error');
    const notice = ofType(await take(notices), 'message')[0].message;
    t.equal(notice.sender_email, 'notification-bot@example.com');
    t.equal(notice.content, `Your bot \`hook-bot@${w.org.host}\` tried to send a message to channel #**Nowhere**, but that channel does not exist. Click [here](#channels/new) to create it.`);
    t.equal((await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Nowhere' }, { text: 'again' })).status, 200);
    t.same(ofType(await take(notices), 'message'), [], 'the owner is told at most once in five minutes');

    t.equal((await w.hamlet.delete(`/bots/${bot.user_id}`)).status, 200);
    t.same(err(await hook(w, 'slack_incoming', { api_key: bot.api_key, stream: 'Verona' }, { text: 'x' })), [401, 'USER_DEACTIVATED', 'Account is deactivated']);
  });

  t.test('github: push, pull requests, issues, comments, filters', async (t) => {
    const w = await world(t);
    const bot = await incomingBot(w);
    const gh = (event: string, payload: unknown, query: Record<string, unknown> = {}) => hook(w, 'github', { api_key: bot.api_key, stream: 'Verona', ...query }, payload, { 'x-github-event': event });
    const commit = (n: number, author: string) => ({ id: `0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1${n}`, url: `https://github.com/baxter/public-repo/commit/${n}`, message: `Update README\n\nmore`, author: { name: author, username: author } });
    const push = { ref: 'refs/heads/changes', compare: 'https://github.com/baxter/public-repo/compare/a...b', deleted: false, forced: false, created: false, commits: [commit(1, 'baxter')], repository: repo, sender };
    t.equal((await gh('push', push)).status, 200);
    let m = await newest(w);
    t.same([m.subject, m.content], ['public-repo / changes', 'baxter [pushed](https://github.com/baxter/public-repo/compare/a...b) 1 commit to branch changes.\n\n* Update README ([0d1a26e](https://github.com/baxter/public-repo/commit/1))']);
    await gh('push', { ...push, commits: [commit(1, 'tom'), commit(2, 'tom'), commit(3, 'ben')] });
    m = await newest(w);
    t.match(m.content, /^baxter \[pushed\]\(.*\) 3 commits to branch changes\. Commits by tom \(2\) and ben \(1\)\.\n\n\* Update README/);
    const before = m.id;
    t.equal((await gh('push', push, { branches: 'master,dev' })).status, 200);
    t.equal((await newest(w)).id, before, 'a branch not listed in `branches` is not told');
    t.equal((await gh('push', push, { only_events: ['pull_request*'] })).status, 200);
    t.equal((await newest(w)).id, before, 'only_events filters');

    const pr = { number: 1, title: 'Update the README', html_url: 'https://github.com/baxter/public-repo/pull/1', body: 'A simple change.', head: { label: 'changes' }, base: { label: 'master' }, merged: true, assignee: null };
    await gh('pull_request', { action: 'opened', pull_request: pr, repository: repo, sender });
    m = await newest(w);
    t.same([m.subject, m.content], ['public-repo / PR #1 Update the README', 'baxter opened [PR #1](https://github.com/baxter/public-repo/pull/1) from `changes` to `master`:\n\n~~~ quote\nA simple change.\n~~~']);
    await gh('pull_request', { action: 'closed', pull_request: pr, repository: repo, sender }, { topic: 'notifications' });
    m = await newest(w);
    t.same([m.subject, m.content], ['notifications', 'baxter merged [PR #1 Update the README](https://github.com/baxter/public-repo/pull/1).']);
    await gh('pull_request', { action: 'assigned', assignee: { login: 'ben' }, pull_request: pr, repository: repo, sender });
    t.equal((await newest(w)).content, 'baxter assigned [PR #1](https://github.com/baxter/public-repo/pull/1) to ben.');

    const issue = { number: 2, title: 'Spelling error', html_url: 'https://github.com/baxter/public-repo/issues/2', body: "It's 'commit'." };
    await gh('issues', { action: 'opened', issue, repository: repo, sender });
    m = await newest(w);
    t.same([m.subject, m.content], ['public-repo / issue #2 Spelling error', "baxter opened [Issue #2](https://github.com/baxter/public-repo/issues/2):\n\n~~~ quote\nIt's 'commit'.\n~~~"]);
    await gh('issue_comment', { action: 'created', issue, comment: { html_url: 'https://github.com/baxter/public-repo/issues/2#c1', body: 'Fixed.' }, repository: repo, sender });
    m = await newest(w);
    t.same([m.subject, m.content], ['public-repo / issue #2 Spelling error', 'baxter [commented](https://github.com/baxter/public-repo/issues/2#c1) on [Issue #2](https://github.com/baxter/public-repo/issues/2):\n\n~~~ quote\nFixed.\n~~~']);
    await gh('issue_comment', { action: 'created', issue: { ...issue, pull_request: {} }, comment: { html_url: 'https://x.org/c', body: 'LGTM' }, repository: repo, sender });
    t.equal((await newest(w)).subject, 'public-repo / PR #2 Spelling error', 'a comment on a pull request is about the PR');
    await gh('ping', { zen: 'Keep it simple.', repository: repo, sender });
    t.equal((await newest(w)).content, 'GitHub webhook has been successfully configured by baxter.');
    const last = (await newest(w)).id;
    t.equal((await gh('check_suite', { action: 'completed', repository: repo, sender })).status, 200, 'an ignored event answers success');
    t.equal((await newest(w)).id, last);
    t.equal(HAMLET, w.org.users.get(bot.user_id)!.botOwnerId);
  });
});
