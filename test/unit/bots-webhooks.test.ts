/**
 * Unit tests of the bot rules (domain/bots.ts), the export rules (domain/realm-export.ts) and the
 * webhook renderers (domain/webhooks/): each allowed and refused, and the sentences Zulip writes.
 */
import { test } from 'tap';
import { allowedBotTypes, botCreationRefusal, botEmail, checkShortName, mayAdministerBot } from '../../src/domain/bots.js';
import { checkExportAllowed, deletionRefusal, type RealmExportRecord } from '../../src/domain/realm-export.js';
import { pullRequestMessage, pushCommitsMessage, pushTagMessage } from '../../src/domain/webhooks/git.js';
import { githubMessage } from '../../src/domain/webhooks/github.js';
import { replaceFormatting, replaceLinks, slackMessage } from '../../src/domain/webhooks/slack.js';
import { parsePayload, Wild } from '../../src/domain/webhooks/wild.js';
import { ApiError } from '../../src/domain/errors.js';
import { admin, directory, guest, member, realmWith, sys } from '../helpers/group-fixtures.js';

const groups = directory([]);
const INSUFFICIENT = { code: 'BAD_REQUEST', msg: 'Insufficient permission' };

test('who may create which bots', async (t) => {
  const open = realmWith({ can_create_bots_group: sys('role:members'), can_create_write_only_bots_group: sys('role:members') });
  t.equal(botCreationRefusal(member, open, groups, 1), null);
  t.same(botCreationRefusal(guest, realmWith({ can_create_bots_group: sys('role:everyone') }), groups, 1), INSUFFICIENT, 'never guests');
  const limited = realmWith({ can_create_bots_group: sys('role:administrators'), can_create_write_only_bots_group: sys('role:members') });
  t.same(botCreationRefusal(member, limited, groups, 1), INSUFFICIENT);
  t.equal(botCreationRefusal(member, limited, groups, 2), null, 'incoming webhook bots through the write-only setting');
  t.same(allowedBotTypes(member, limited, groups), [2]);
  t.same(allowedBotTypes(admin, limited, groups), [1, 2, 3], 'administrators always; embedded bots are not enabled');
});

test('bot addresses and administration', async (t) => {
  t.equal(botEmail(checkShortName('  helper '), 'example.com'), 'helper-bot@example.com');
  t.throws(() => checkShortName('   '), new ApiError('BAD_REQUEST', 'Bad name or username'));
  t.throws(() => botEmail('a b', 'example.com'), new ApiError('BAD_REQUEST', 'Bad name or username'));
  t.ok(mayAdministerBot(member, { botOwnerId: member.id }), 'the owner');
  t.ok(mayAdministerBot(admin, { botOwnerId: member.id }), 'an administrator');
  t.notOk(mayAdministerBot(member, { botOwnerId: admin.id }));
});

test('export limits and deletion', async (t) => {
  const record = (over: Partial<RealmExportRecord>): RealmExportRecord => ({ id: 1, actingUserId: 1, type: 1, status: 'succeeded', requestedAt: 1000, failedAt: null, deletedAt: null, file: 'f', ...over });
  t.doesNotThrow(() => checkExportAllowed([1, 2, 3, 4].map((id) => record({ id })), 2000));
  t.throws(() => checkExportAllowed([1, 2, 3, 4, 5].map((id) => record({ id })), 2000), new ApiError('BAD_REQUEST', 'Exceeded rate limit.'));
  t.doesNotThrow(() => checkExportAllowed([1, 2, 3, 4, 5].map((id) => record({ id })), 1000 + 8 * 86400), 'a week later');
  t.equal(deletionRefusal(record({})), null);
  t.equal(deletionRefusal(undefined), 'Invalid data export ID');
  t.equal(deletionRefusal(record({ deletedAt: 5 })), 'Export already deleted');
  t.equal(deletionRefusal(record({ status: 'failed' })), 'Export failed, nothing to delete');
  t.equal(deletionRefusal(record({ status: 'started' })), 'Export still in progress');
});

test('Slack payloads', async (t) => {
  t.equal(replaceLinks('see <https://a.org/x|the page> now'), 'see [the page](https://a.org/x) now');
  t.equal(replaceFormatting('*bold* and _it_ but not a*b*c'), '**bold** and *it* but not a*b*c');
  t.same(slackMessage(parsePayload('{"text":"hi","channel":"@ops","icon_emoji":":wave:"}'), undefined), { topic: 'ops', body: ':wave: hi' });
  t.same(slackMessage(parsePayload('{"text":""}'), 'given'), { topic: 'given', body: '' });
  t.throws(() => slackMessage(parsePayload('{"blocks":[{"type":"image","image_url":"ftp://x","alt_text":"a"}]}'), undefined), new ApiError('BAD_REQUEST', 'payload["blocks"][0]["image_url"] is not a URL'));
  t.throws(() => parsePayload('{'), new ApiError('BAD_REQUEST', 'Malformed JSON'));
  t.throws(() => new Wild('payload', {}).at('x'), new ApiError('BAD_REQUEST', 'payload["x"] is missing'));
});

test('git sentences', async (t) => {
  const commits = (names: string[]) => names.map((name, i) => ({ name, sha: `abcdef${i}123`, url: `u${i}`, message: `m${i}\nbody` }));
  t.equal(pushCommitsMessage('ann', 'c', 'main', [], { deleted: true, forced: false }), 'ann [deleted](c) the branch main.');
  t.equal(pushCommitsMessage('ann', 'c', 'main', [], { deleted: false, forced: false }), 'ann [pushed](c) the branch main.');
  t.equal(pushCommitsMessage('ann', 'c', 'main', commits(['ann']), { deleted: false, forced: true }), 'ann [force pushed](c) 1 commit to branch main.\n\n* m0 ([abcdef0](u0))');
  t.equal(
    pushCommitsMessage('ann', 'c', 'main', commits(['a', 'b', 'b', 'c', 'd', 'd', 'd']), { deleted: false, forced: false }).split('\n')[0],
    'ann [pushed](c) 7 commits to branch main. Commits by d (3), b (2), a (1) and others (1).',
  );
  t.match(pushCommitsMessage('ann', 'c', 'main', commits(Array(25).fill('ann')), { deleted: false, forced: false }), /\[and 5 more commit\(s\)\]$/);
  t.equal(pushTagMessage('ann', 'v1.0', 'pushed'), 'ann pushed tag v1.0.');
  t.equal(pushTagMessage('ann', 'v1.', 'removed'), 'ann removed tag v1.');
  t.equal(pullRequestMessage({ user: 'ann', action: 'closed', url: 'u', number: 3, title: 'Fix it!' }), 'ann closed [PR #3 Fix it!](u)', 'a title ending in punctuation takes none');
  t.equal(pullRequestMessage({ user: 'ann', action: 'opened', url: 'u', number: 3, type: 'Issue', message: 'text' }), 'ann opened [Issue #3](u):\n\n~~~ quote\ntext\n~~~');
  const ping = githubMessage('ping', new Wild('payload', { sender: { login: 'ann' }, organization: { login: 'org' } }), { ignorePrivateRepositories: false });
  t.same(ping, { event: 'ping', topic: 'org', body: 'GitHub webhook has been successfully configured by ann.' });
  t.throws(() => githubMessage('fork_x', new Wild('payload', {}), { ignorePrivateRepositories: false }), { message: "The 'fork_x:???' event isn't currently supported by the GitHub webhook; ignoring" });
  t.equal(githubMessage('push', new Wild('payload', { repository: { private: true } }), { ignorePrivateRepositories: true }), null, 'private repositories ignored when asked');
});
