/**
 * Black-box tests of POST /messages/{id}/report, on a fresh demo organization with a fake clock.
 */
import { test } from 'tap';
import { setRealm } from '../helpers/world.js';
import { MODERATION, BOT, messageWorld, send, sendDm, message, error, invalidMessage } from '../helpers/messages.js';

test('POST /messages/{id}/report', async (t) => {
  t.test('POST /messages/{id}/report', async (t) => {
    const { server, iago, hamlet, othello, cordelia, seconds } = await messageWorld(t);
    const sentAt = seconds();
    const id = await send(hamlet, 'Denmark', 'offers', 'Cheap ```swords``` here\n```\nbuy\n```');
    const reported = await othello.post(`/messages/${id}/report`, { report_type: 'spam', description: 'Selling things' });
    t.same([reported.status, reported.body], [200, { result: 'success', msg: '' }]);
    const time = new Date(sentAt * 1000).toISOString().replace('.000Z', '+00:00');
    const report = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [{ operator: 'channel', operand: MODERATION }], apply_markdown: false })).body.messages[0];
    t.match(report, { sender_id: BOT, subject: 'King Hamlet moderation', stream_id: MODERATION, client: 'Internal' });
    t.equal(report.content, [
      `@_**Othello, the Moor of Venice|5** reported a message sent by @_**King Hamlet|4** at <time:${time}>.`,
      '```quote',
      '**Spam**. Selling things',
      '```',
      '',
      `\`\`\`\` spoiler Original message at #**Denmark>offers@${id}**`,
      'Cheap ```swords``` here',
      '```',
      'buy',
      '```',
      '````',
    ].join('\n'), 'who reported whom, the reason, the description and the reported message in a spoiler');
    t.same(report.flags, [], 'unread for the moderators');
    const rendered = (await message(iago, report.id)).content;
    t.match(rendered, /<blockquote>/);
    t.match(rendered, /spoiler-block/);

    const own = await iago.post(`/messages/${id}/report`, { report_type: 'other', description: 'Another reason' });
    t.equal(own.status, 200);
    const second = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation'], ['topic', 'King Hamlet moderation']], apply_markdown: false })).body.messages[0];
    t.match(second.content, /^@_\*\*Iago\|2\*\* reported a message sent by @_\*\*King Hamlet\|4\*\*.*\n```quote\n\*\*Other reason\*\*\. Another reason\n```/);
    t.same(second.flags, ['read'], 'read for the reporter');
    for (const [type, label] of [['harassment', 'Harassment'], ['inappropriate', 'Inappropriate content'], ['norms', 'Violates community norms']]) {
      await cordelia.post(`/messages/${id}/report`, { report_type: type });
      const latest = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation']], apply_markdown: false })).body.messages[0];
      t.match(latest.content, new RegExp(`\\n\\*\\*${label}\\*\\*\\. \\n`), label);
    }
    const dm = await sendDm(othello, [6], 'a private insult');
    t.equal((await cordelia.post(`/messages/${dm}/report`, { report_type: 'harassment' })).status, 200);
    const dmReport = (await iago.get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'moderation']], apply_markdown: false })).body.messages[0];
    t.equal(dmReport.subject, 'Othello, the Moor of Venice moderation', 'a topic per reported user');
    t.match(dmReport.content, /^@_\*\*Cordelia, Lear's daughter\|6\*\* reported a direct message sent by @_\*\*Othello, the Moor of Venice\|5\*\* at /);
    t.match(dmReport.content, /``` spoiler \[Original message\]\(http:\/\/127\.0\.0\.1:\d+\/#narrow\/dm\/6\/near\/\d+\)\na private insult\n```$/);

    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'other' })), [400, 'BAD_REQUEST', 'An explanation is required.']);
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'other', description: '' })), [400, 'BAD_REQUEST', 'An explanation is required.']);
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'spam', description: 'x'.repeat(1001) })), [400, 'BAD_REQUEST', 'description is too long (limit: 1000 characters)']);
    t.equal((await othello.post(`/messages/${id}/report`, { report_type: 'other', description: 'y'.repeat(1000) })).status, 200, '1000 characters are fine');
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'boring' })), [400, 'BAD_REQUEST', 'Invalid report_type']);
    t.same(error(await othello.post(`/messages/${id}/report`, {})), [400, 'REQUEST_VARIABLE_MISSING', "Missing 'report_type' argument"]);
    const secret = await send(iago, 'core team', 'x', 'secret');
    t.same(error(await othello.post(`/messages/${secret}/report`, { report_type: 'spam' })), invalidMessage);
    await setRealm(server, { moderation_request_channel_id: -1 });
    t.same(error(await othello.post(`/messages/${id}/report`, { report_type: 'spam' })), [400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.']);
    await setRealm(server, { moderation_request_channel_id: MODERATION });
  });
});
