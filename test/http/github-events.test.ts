/**
 * The GitHub events beyond pushes, pull requests, issues and comments, each sent as GitHub sends
 * it (the `X-GitHub-Event` header, a minimal payload of GitHub's shape) to a webhook bot: the
 * message is posted with Zulip's topic and text, events Zulip says nothing about post nothing,
 * and Zulip's refusal for what it does not support.
 */
import { test } from 'tap';
import { encodeParams } from '../helpers/client.js';
import { ofType, register, take } from '../helpers/events.js';
import { world, type World } from '../helpers/world.js';

const REPO = { name: 'public-repo', full_name: 'baxterthehacker/public-repo', html_url: 'https://github.com/baxterthehacker/public-repo', private: false };
const SENDER = { login: 'baxterthehacker', html_url: 'https://github.com/baxterthehacker' };
const PR = { number: 1, title: 'Update the README with new information', html_url: 'https://github.com/baxterthehacker/public-repo/pull/1', active_lock_reason: null };
const ISSUE = { number: 2, title: 'Spelling error in the README file', html_url: 'https://github.com/baxterthehacker/public-repo/issues/2', body: 'It looks like you accidently spelled commit with two t\'s.' };
const SHA = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
const DISCUSSION = { number: 90, title: 'Lets discuss', html_url: 'https://github.com/baxterthehacker/public-repo/discussions/90', body: 'Whats up?', category: { name: 'General' } };
const base = { repository: REPO, sender: SENDER };

type Case = [header: string, payload: Record<string, unknown>, topic: string, content: string, query?: Record<string, unknown>];

const CASES: Case[] = [
  ['create', { ...base, ref: 'simple-tag', ref_type: 'tag' }, 'public-repo', 'baxterthehacker created tag simple-tag.'],
  ['delete', { ...base, ref: 'feature', ref_type: 'branch' }, 'public-repo', 'baxterthehacker deleted branch feature.'],
  ['fork', { ...base, forkee: { name: 'public-repo', html_url: 'https://github.com/baxterandthehackers/public-repo' } }, 'public-repo', 'baxterthehacker forked [public-repo](https://github.com/baxterandthehackers/public-repo).'],
  ['release', { ...base, action: 'published', release: { tag_name: '0.0.1', name: null, html_url: 'https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1' } }, 'public-repo', 'baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.'],
  ['release', { ...base, action: 'created', release: { tag_name: 'v1.0', name: 'First release', html_url: 'https://github.com/r/v1.0' } }, 'public-repo', 'baxterthehacker created release [First release](https://github.com/r/v1.0) for tag v1.0.'],
  ['star', { ...base, action: 'created' }, 'public-repo', '[baxterthehacker](https://github.com/baxterthehacker) starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).'],
  ['star', { ...base, action: 'deleted' }, 'public-repo', '[baxterthehacker](https://github.com/baxterthehacker) unstarred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).'],
  ['watch', { ...base, action: 'started' }, 'public-repo', 'baxterthehacker starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).'],
  ['member', { ...base, action: 'added', member: { login: 'octocat', html_url: 'https://github.com/octocat' } }, 'public-repo', 'baxterthehacker added [octocat](https://github.com/octocat) to [public-repo](https://github.com/baxterthehacker/public-repo).'],
  ['membership', { sender: SENDER, action: 'removed', member: { login: 'kdaigle', html_url: 'https://github.com/kdaigle' }, team: { name: 'Contractors' }, organization: { login: 'baxterandthehackers' } }, 'baxterandthehackers organization', 'baxterthehacker removed [kdaigle](https://github.com/kdaigle) from the Contractors team.'],
  ['public', base, 'public-repo', 'baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.'],
  ['repository', { ...base, action: 'created' }, 'public-repo', 'baxterthehacker created the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).'],
  ['team_add', { ...base, team: { name: 'github' } }, 'public-repo', 'The repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) was added to team github.'],
  ['team', { sender: SENDER, action: 'edited', team: { name: 'Justice League', description: 'A great team' }, changes: { description: { from: 'An old team' } } }, 'team Justice League', '**baxterthehacker** changed the team description to:\n\n~~~ quote\nA great team\n~~~'],
  ['team', { sender: SENDER, action: 'edited', team: { name: 'New name' }, changes: { name: { from: 'Old name' } } }, 'team New name', 'Team `Old name` was renamed to `New name`.'],
  ['commit_comment', { ...base, action: 'created', comment: { html_url: `https://github.com/baxterthehacker/public-repo/commit/${SHA}#commitcomment-11056394`, commit_id: SHA, body: 'This is a really good change! :+1:' } }, 'public-repo', `baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/commit/${SHA}#commitcomment-11056394) on [9049f12](https://github.com/baxterthehacker/public-repo/commit/${SHA}):\n~~~ quote\nThis is a really good change! :+1:\n~~~`],
  ['pull_request_review', { ...base, action: 'submitted', pull_request: PR, review: { html_url: 'https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884', body: 'Looks great!' } }, 'public-repo / PR #1 Update the README with new information', 'baxterthehacker submitted [PR review](https://github.com/baxterthehacker/public-repo/pull/1#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~'],
  ['pull_request_review', { ...base, action: 'submitted', pull_request: PR, review: { html_url: 'https://github.com/r/pull/1#review', body: null } }, 'notes', 'baxterthehacker submitted [PR review for #1 Update the README with new information](https://github.com/r/pull/1#review).', { topic: 'notes' }],
  ['pull_request_review_comment', { ...base, action: 'created', pull_request: PR, comment: { html_url: 'https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692', body: 'Maybe you should use more emojji on this line.' } }, 'public-repo / PR #1 Update the README with new information', 'baxterthehacker created [PR review comment](https://github.com/baxterthehacker/public-repo/pull/1#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emojji on this line.\n~~~'],
  ['pull_request', { ...base, action: 'review_requested', pull_request: PR, requested_reviewer: { login: 'eeshangarg', html_url: 'https://github.com/eeshangarg' } }, 'public-repo / PR #1 Update the README with new information', '**baxterthehacker** requested [eeshangarg](https://github.com/eeshangarg) for a review on [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).'],
  ['pull_request', { ...base, action: 'review_requested', pull_request: PR, requested_team: { name: 'reviewers', html_url: 'https://github.com/orgs/o/teams/reviewers' } }, 'notes', '**baxterthehacker** requested [reviewers](https://github.com/orgs/o/teams/reviewers) for a review on [PR #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1).', { topic: 'notes' }],
  ['pull_request', { ...base, action: 'ready_for_review', pull_request: PR }, 'public-repo / PR #1 Update the README with new information', '**baxterthehacker** has marked [PR #1](https://github.com/baxterthehacker/public-repo/pull/1) as ready for review.'],
  ['pull_request', { ...base, action: 'locked', pull_request: { ...PR, active_lock_reason: 'resolved' } }, 'public-repo / PR #1 Update the README with new information', 'baxterthehacker has locked [PR #1](https://github.com/baxterthehacker/public-repo/pull/1) as resolved and limited conversation to collaborators.'],
  ['pull_request', { ...base, action: 'unlocked', pull_request: PR }, 'public-repo / PR #1 Update the README with new information', 'baxterthehacker has unlocked [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).'],
  ['pull_request', { ...base, action: 'auto_merge_enabled', pull_request: PR }, 'public-repo / PR #1 Update the README with new information', 'baxterthehacker has enabled auto merge for [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).'],
  ['issues', { ...base, action: 'labeled', issue: ISSUE, label: { name: 'bug' } }, 'public-repo / issue #2 Spelling error in the README file', '[baxterthehacker](https://github.com/baxterthehacker) added the bug label to [Issue #2](https://github.com/baxterthehacker/public-repo/issues/2).'],
  ['issues', { ...base, action: 'unlabeled', issue: ISSUE, label: { name: 'bug' } }, 'notes', '[baxterthehacker](https://github.com/baxterthehacker) removed the bug label from [Issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2).', { topic: 'notes' }],
  ['issues', { ...base, action: 'milestoned', issue: ISSUE, milestone: { title: 'v1', html_url: 'https://github.com/m/1' } }, 'public-repo / issue #2 Spelling error in the README file', '[baxterthehacker](https://github.com/baxterthehacker) added milestone [v1](https://github.com/m/1) to [issue #2](https://github.com/baxterthehacker/public-repo/issues/2).'],
  ['issues', { ...base, action: 'transferred', issue: ISSUE, changes: { new_repository: { full_name: 'baxterthehacker/other' }, new_issue: { number: 7, html_url: 'https://github.com/baxterthehacker/other/issues/7' } } }, 'public-repo / issue #2 Spelling error in the README file', 'baxterthehacker transferred [issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2) to [baxterthehacker/other/#7](https://github.com/baxterthehacker/other/issues/7).'],
  ['issues', { ...base, action: 'opened', issue: ISSUE, changes: { old_repository: { full_name: 'baxterthehacker/old' }, old_issue: { number: 3, html_url: 'https://github.com/baxterthehacker/old/issues/3' } } }, 'public-repo / issue #2 Spelling error in the README file', '[Issue #2 Spelling error in the README file](https://github.com/baxterthehacker/public-repo/issues/2) was transferred from [baxterthehacker/old#3](https://github.com/baxterthehacker/old/issues/3).'],
  ['gollum', { ...base, pages: [{ action: 'created', title: 'Home', html_url: 'https://github.com/w/Home' }, { action: 'edited', title: 'Setup', html_url: 'https://github.com/w/Setup' }] }, 'public-repo / wiki pages', 'baxterthehacker:\n* created [Home](https://github.com/w/Home)\n* edited [Setup](https://github.com/w/Setup)'],
  ['status', { ...base, sha: SHA, state: 'success', target_url: 'https://ci.example.com/1', commit: { html_url: `https://github.com/baxterthehacker/public-repo/commit/${SHA}` } }, 'public-repo', `[9049f12](https://github.com/baxterthehacker/public-repo/commit/${SHA}) changed its status to [success](https://ci.example.com/1).`],
  ['status', { ...base, sha: SHA, state: 'pending', target_url: null, commit: { html_url: 'https://github.com/c' } }, 'public-repo', '[9049f12](https://github.com/c) changed its status to pending.'],
  ['check_run', { ...base, action: 'completed', check_run: { name: 'Lint', html_url: 'https://github.com/runs/4', status: 'completed', conclusion: 'success', head_sha: SHA } }, 'public-repo / checks', `Check [Lint](https://github.com/runs/4) completed (success). ([9049f12](https://github.com/baxterthehacker/public-repo/commit/${SHA}))`],
  ['deployment', { ...base, deployment: { environment: 'production' } }, 'public-repo / Deployment on production', 'baxterthehacker created new deployment.'],
  ['deployment_status', { ...base, deployment: { environment: 'production' }, deployment_status: { state: 'success' } }, 'public-repo / Deployment on production', 'Deployment changed status to success.'],
  ['page_build', { ...base, build: { status: 'built', error: { message: null }, pusher: { login: 'baxterthehacker' } } }, 'public-repo', 'GitHub Pages build, triggered by baxterthehacker, has finished building.'],
  ['page_build', { ...base, build: { status: 'errored', error: { message: 'Page build failed.' }, pusher: { login: 'baxterthehacker' } } }, 'public-repo', 'GitHub Pages build, triggered by baxterthehacker, has failed: \n~~~ quote\nPage build failed.\n~~~.'],
  ['discussion', { ...base, action: 'created', discussion: DISCUSSION }, 'public-repo discussion #90: Lets discuss', 'baxterthehacker created [discussion #90](https://github.com/baxterthehacker/public-repo/discussions/90) in General:\n\n~~~ quote\n### Lets discuss\nWhats up?\n~~~'],
  ['discussion_comment', { ...base, action: 'created', discussion: DISCUSSION, comment: { html_url: 'https://github.com/d/90#c1', body: 'Not much' } }, 'public-repo discussion #90: Lets discuss', 'baxterthehacker [commented](https://github.com/d/90#c1) on [discussion #90](https://github.com/baxterthehacker/public-repo/discussions/90):\n\n~~~ quote\nNot much\n~~~'],
];

async function hook(w: World, key: string, header: string, payload: unknown, query: Record<string, unknown> = {}) {
  const url = `${w.server.url}/api/v1/external/github?${encodeParams({ api_key: key, stream: 'Verona', ...query })}`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': header }, body: JSON.stringify(payload) });
  return { status: response.status, body: (await response.json()) as any };
}

test('GitHub events as Zulip renders them', async (t) => {
  const w = await world(t);
  const bot = (await w.hamlet.post('/bots', { full_name: 'GitHub Bot', short_name: 'github', bot_type: 2 })).body as { user_id: number; api_key: string };
  const queue = await register(w.othello, { event_types: ['message'] });
  for (const [header, payload, topic, content, query] of CASES) {
    const answer = await hook(w, bot.api_key, header, payload, query);
    t.same([answer.status, answer.body.result], [200, 'success'], `${header}: ${JSON.stringify(answer.body)}`);
    const posted = ofType(await take(queue), 'message').map((e) => e.message);
    t.equal(posted.length, 1, `${header} posts one message`);
    t.same([posted[0]?.sender_id, posted[0]?.subject], [bot.user_id, topic], `${header}: the topic`);
    const raw = await w.othello.get(`/messages/${posted[0]?.id}`);
    t.equal(raw.body.raw_content, content, `${header}: the text`);
  }

  // What Zulip knows and says nothing about, and what it refuses.
  const silent: [string, Record<string, unknown>][] = [
    ['check_run', { ...base, action: 'created', check_run: { name: 'Lint', html_url: 'x', status: 'queued', conclusion: null, head_sha: SHA } }],
    ['team', { sender: SENDER, action: 'created', team: { name: 'x' } }],
    ['pull_request_review', { ...base, action: 'edited', pull_request: PR, review: { html_url: 'x', body: null }, changes: {} }],
    ['discussion_comment', { ...base, action: 'edited', discussion: DISCUSSION, comment: { html_url: 'https://github.com/d/90#c1', body: 'Same' }, changes: { body: { from: 'Same' } } }],
  ];
  for (const [header, payload] of silent) {
    const answer = await hook(w, bot.api_key, header, payload);
    t.same([answer.status, answer.body.result], [200, 'success'], `${header} (${payload.action}) is accepted`);
  }
  const posted = ofType(await take(queue), 'message');
  t.same(posted.map((e) => e.message.subject), ['public-repo discussion #90: Lets discuss'], 'only the edited discussion comment speaks (Zulip ignores unchanged edits of other comments only)');
  const refused = await hook(w, bot.api_key, 'team', { sender: SENDER, action: 'renamed_somehow', team: { name: 'x' } });
  t.same([refused.status, refused.body.code, refused.body.msg], [400, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', "The 'unsupported team action renamed_somehow' event isn't currently supported by the GitHub webhook; ignoring"]);
  const unknown = await hook(w, bot.api_key, 'sponsorship', { sender: SENDER, action: 'created' });
  t.same([unknown.status, unknown.body.event_type], [400, 'sponsorship:created']);
  const filtered = await hook(w, bot.api_key, 'fork', { ...base, forkee: { name: 'f', html_url: 'https://github.com/f' } }, { only_events: JSON.stringify(['star', 'push_*']) });
  t.equal(filtered.status, 200);
  t.same(ofType(await take(queue), 'message'), [], 'only_events filters by Zulip\'s event name');

  const registered = await w.hamlet.post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] });
  const github = registered.body.realm_incoming_webhook_bots.find((i: any) => i.name === 'github');
  for (const event of ['create', 'release', 'star', 'pull_request_review', 'issue_labeled_or_unlabeled', 'check_run', 'discussion_comment']) t.ok(github.all_event_types.includes(event), `all_event_types lists ${event}`);
});
