/** Unit tests of what notifications say: push text and payloads (Zulip's push_notifications.py), the missed-message mail and its unsubscribe token. */
import { test } from 'tap';
import { checkUnsubscribeToken, conversationUrl, missedMessageMail, unsubscribeToken, type MissedMailInput } from '../../src/domain/missed-message-mail.js';
import { Trigger } from '../../src/domain/notification-rules.js';
import { mobilePushContent, truncateContent } from '../../src/domain/push-content.js';
import { MAX_REMOVE_IDS, messagePayloads, removePayloads, type PushMessage, type PushRealm } from '../../src/domain/push-payloads.js';

test('push text: emoji, images, quotes, numbered lists, spoilers, entities', async (t) => {
  t.equal(mobilePushContent('<p>Hi <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> &amp; bye</p>'), 'Hi 🙂 & bye');
  t.equal(mobilePushContent('<p><img alt=":party:" class="emoji" src="/user_avatars/2/emoji/images/1.png"></p>'), ':party:');
  t.equal(mobilePushContent('<blockquote>\n<p>quoted line</p>\n</blockquote>\n<p>reply</p>'), '> quoted line\n\nreply');
  t.equal(mobilePushContent('<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>'), '3. three\n4. four');
  t.equal(mobilePushContent('<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>secret</p>\n</div></div>'), 'Plot (…)\n');
  t.equal(mobilePushContent('<p>a &lt;b&gt; &#x1F600; &#39;q&#39;</p>'), "a <b> 😀 'q'");
});

test('push text is cut at 200 characters with an ellipsis (characters, not code units)', async (t) => {
  t.same(truncateContent('x'.repeat(200)), { content: 'x'.repeat(200), truncated: false });
  t.same(truncateContent('😀'.repeat(201)), { content: '😀'.repeat(200) + '…', truncated: true });
});

const realm: PushRealm = { server: 'chat.example.com', realmId: 2, realmUrl: 'https://chat.example.com', realmName: 'Example' };
const sender = { id: 7, email: 'hamlet@example.com', fullName: 'King Hamlet', avatarUrl: 'https://chat.example.com/avatar/7' };

test('message payloads for Android and Apple, as Zulip builds them', async (t) => {
  const message: PushMessage = { id: 99, sender, timestamp: 1700000000, renderedContent: '<p>Hello there</p>', channel: { id: 3, name: 'Verona', topic: 'plans' } };
  const { apns, gcm, gcmOptions } = messagePayloads(realm, 9, message, Trigger.MENTION);
  t.same(gcmOptions, { priority: 'high' });
  t.match(gcm, {
    server: 'chat.example.com', realm_id: 2, realm_uri: 'https://chat.example.com', realm_url: 'https://chat.example.com', realm_name: 'Example', user_id: 9,
    sender_id: 7, sender_email: 'hamlet@example.com', time: 1700000000, recipient_type: 'stream', stream: 'Verona', stream_id: 3, topic: 'plans',
    event: 'message', zulip_message_id: 99, content: 'Hello there', content_truncated: false, sender_full_name: 'King Hamlet', sender_avatar_url: sender.avatarUrl,
  });
  t.same(apns.alert, { title: '#Verona > plans', subtitle: 'King Hamlet mentioned you:', body: 'Hello there' });
  t.match(apns, { sound: 'default', badge: 0, custom: { zulip: { message_ids: [99], recipient_type: 'stream', stream_id: 3, sender_id: 7 } } });
});

test('direct message payloads: 1:1 titled by the sender, groups by everyone with pm_users', async (t) => {
  const dm = messagePayloads(realm, 9, { id: 5, sender, timestamp: 1, renderedContent: '<p>hi</p>' }, Trigger.DIRECT_MESSAGE);
  t.same(dm.apns.alert, { title: 'King Hamlet', subtitle: '', body: 'hi' });
  t.equal(dm.gcm.recipient_type, 'private');
  t.notOk('pm_users' in dm.gcm);
  const group = messagePayloads(realm, 9, { id: 6, sender, timestamp: 1, renderedContent: '<p>all</p>', group: { ids: [9, 7, 8], names: ['Zoe', 'King Hamlet', 'Anna'] } }, Trigger.DIRECT_MESSAGE);
  t.equal(group.gcm.pm_users, '7,8,9');
  t.equal((group.apns.alert as { title: string }).title, 'Anna, King Hamlet, Zoe');
  t.equal((group.apns.alert as { subtitle: string }).subtitle, 'King Hamlet:');
});

test('remove payloads keep the newest 200 ids', async (t) => {
  const ids = Array.from({ length: 250 }, (_, i) => 1000 - i);
  const { gcm, apns, gcmOptions } = removePayloads(realm, 9, ids);
  const kept = String(gcm.zulip_message_ids).split(',').map(Number);
  t.equal(kept.length, MAX_REMOVE_IDS);
  t.equal(kept[0], 801);
  t.equal(kept.at(-1), 1000);
  t.equal(gcm.event, 'remove');
  t.equal(gcm.zulip_message_id, 801);
  t.same(gcmOptions, { priority: 'normal' });
  t.match(apns, { custom: { zulip: { event: 'remove', zulip_message_ids: gcm.zulip_message_ids } } });
});

test('conversation links use the web client\'s narrow fragments', async (t) => {
  t.equal(conversationUrl('https://c.example', { kind: 'stream', channelId: 5, channelName: 'Den mark', topic: 'a.b c' }), 'https://c.example/#narrow/channel/5-Den-mark/topic/a.2Eb.20c');
  t.equal(conversationUrl('https://c.example', { kind: 'dm', senderId: 7, senderName: 'King Hamlet' }), 'https://c.example/#narrow/dm/7-King-Hamlet');
  t.equal(conversationUrl('https://c.example', { kind: 'group', others: [{ id: 9, name: 'a' }, { id: 3, name: 'b' }] }), 'https://c.example/#narrow/dm/3,9-group');
});

const mailInput = (over: Partial<MissedMailInput> = {}): MissedMailInput => ({
  to: 'othello@example.com',
  from: 'noreply@example.com',
  recipientName: 'Othello',
  realm: { name: 'Example', url: 'https://c.example' },
  conversation: { kind: 'stream', channelId: 5, channelName: 'Verona', topic: 'plans' },
  messages: [{ id: 1, senderName: 'King Hamlet', renderedContent: '<p>See <a href="/user_uploads/x.png">this</a> <strong>now</strong></p>', trigger: Trigger.MENTION }],
  showContent: true,
  realmNameInSubject: false,
  unsubscribeUrl: 'https://c.example/accounts/unsubscribe/missed_messages/abc',
  ...over,
});

test('the missed-message mail: subject, reason, messages in HTML and text, links', async (t) => {
  const mail = missedMessageMail(mailInput());
  t.equal(mail.subject, '#Verona > plans');
  t.match(mail.text, /King Hamlet mentioned you in #Verona > plans\./);
  t.match(mail.text, /King Hamlet:\nSee this now/);
  t.match(mail.text, /https:\/\/c\.example\/#narrow\/channel\/5-Verona\/topic\/plans/);
  t.match(mail.html, /<a href="https:\/\/c\.example\/user_uploads\/x\.png">this<\/a>/, 'links made absolute');
  t.match(mail.html, /href="https:\/\/c\.example\/accounts\/unsubscribe\/missed_messages\/abc"/);
  t.equal(missedMessageMail(mailInput({ conversation: { kind: 'dm', senderId: 7, senderName: 'King Hamlet' } })).subject, 'DMs with King Hamlet');
  t.equal(missedMessageMail(mailInput({ realmNameInSubject: true })).subject, '#Verona > plans [Example]');
  const hidden = missedMessageMail(mailInput({ showContent: false }));
  t.equal(hidden.subject, 'New messages');
  t.notMatch(hidden.text, /See this/);
  t.match(missedMessageMail(mailInput({ recipientName: '<script>' })).html, /Hello &lt;script&gt;/);
});

test('unsubscribe tokens: signed for one user, refused when forged', async (t) => {
  const token = unsubscribeToken('secret', 12);
  t.equal(checkUnsubscribeToken('secret', token), 12);
  t.equal(checkUnsubscribeToken('other secret', token), undefined);
  t.equal(checkUnsubscribeToken('secret', token.replace(/^12/, '13')), undefined);
  t.equal(checkUnsubscribeToken('secret', 'garbage'), undefined);
  t.equal(checkUnsubscribeToken('', token), undefined);
});
