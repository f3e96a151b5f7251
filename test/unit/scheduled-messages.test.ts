/** Unit tests of the scheduled-message rules (domain/scheduled-messages.ts) and the scheduler actor's queue and timer. */
import { test } from 'tap';
import {
  checkDeliveryTime,
  dueOrder,
  failureNotice,
  isTooLate,
  checkRecipientIds,
  recipientType,
  reminderObject,
  scheduledMessageObject,
  type ScheduledMessageRecord,
} from '../../src/domain/scheduled-messages.js';
import { normalizeNote, reminderContent } from '../../src/domain/reminders.js';
import { dueCount, Scheduler } from '../../src/actors/scheduler.js';
import { ApiError } from '../../src/domain/errors.js';

const record: ScheduledMessageRecord = {
  id: 7, kind: 'send', senderId: 4, type: 'stream', channelId: 2, topic: 'plans', content: 'hi', renderedContent: '<p>hi</p>',
  deliverAt: 1_800_000_000, readBySender: true, client: 'website', failed: false,
};

test('the four type names', async (t) => {
  t.equal(recipientType('stream'), 'stream');
  t.equal(recipientType('channel'), 'stream');
  t.equal(recipientType('private'), 'private');
  t.equal(recipientType('direct'), 'private');
  t.throws(() => recipientType('huddle'), ApiError);
});

test('a delivery time must be in the future', async (t) => {
  t.doesNotThrow(() => checkDeliveryTime(101, 100));
  t.throws(() => checkDeliveryTime(100, 100), { message: 'Scheduled delivery time must be in the future.' });
  t.throws(() => checkDeliveryTime(99, 100));
});

test("Zulip's 10-minute cut-off", async (t) => {
  t.notOk(isTooLate(1000, 1000 * 1000), 'on time');
  t.notOk(isTooLate(1000, (1000 + 600) * 1000), 'exactly 10 minutes late still goes');
  t.ok(isTooLate(1000, (1000 + 600) * 1000 + 1), 'later fails');
});

test('the API objects', async (t) => {
  t.same(scheduledMessageObject(record), {
    scheduled_message_id: 7, type: 'stream', to: 2, topic: 'plans', content: 'hi', rendered_content: '<p>hi</p>', scheduled_delivery_timestamp: 1_800_000_000, failed: false,
  });
  const direct = scheduledMessageObject({ ...record, type: 'private', channelId: undefined, topic: undefined, userIds: [5] });
  t.same([direct.to, 'topic' in direct], [[5], false], 'a direct message has no topic');
  t.same(reminderObject({ ...record, kind: 'remind', type: 'private', userIds: [4], targetMessageId: 42 }), {
    reminder_id: 7, type: 'private', to: [4], content: 'hi', rendered_content: '<p>hi</p>', scheduled_delivery_timestamp: 1_800_000_000, failed: false, reminder_target_message_id: 42,
  });
  t.equal(failureNotice(1_800_000_000, 'No.'), 'The message you scheduled for <time:2027-01-15T08:00:00+00:00> was not sent because of the following error:\n\n> No.\n\n[View scheduled messages](#scheduled)');
});

test('ids only in `to`', async (t) => {
  t.doesNotThrow(() => checkRecipientIds('stream', 3));
  t.doesNotThrow(() => checkRecipientIds('private', [4, 5]));
  t.throws(() => checkRecipientIds('private', [4, 'othello@example.com']), { message: 'Recipient list may only contain user IDs' });
  t.throws(() => checkRecipientIds('stream', ['Verona']), { message: 'Invalid data type for channel' });
});

test("Zulip's reminder text", async (t) => {
  const sender = { id: 5, fullName: 'Othello' };
  t.equal(
    reminderContent({ id: 42, sender, content: 'hi', channel: { id: 2, name: 'Verona', topic: 'plans' } }, 'https://chat.example.com', undefined),
    'You requested a reminder for #**Verona>plans@42**.\n\n@_**Othello|5** [said](https://chat.example.com/#narrow/channel/2-Verona/topic/plans/near/42):\n```quote\nhi\n```',
  );
  t.equal(
    reminderContent({ id: 43, sender, content: 'psst', userIds: [5, 4] }, 'https://chat.example.com', '  call back \n'),
    'You requested a reminder for the following direct message. Note:\n >   call back\n\n@_**Othello|5** [said](https://chat.example.com/#narrow/dm/4,5/near/43):\n```quote\npsst\n```',
  );
  t.match(reminderContent({ id: 44, sender, content: '/poll Tea?', userIds: [5] }, 'https://c', ''), /\n\n@_\*\*Othello\|5\*\* \[sent\]\(https:\/\/c\/#narrow\/dm\/5\/near\/44\) a poll\.$/);
  t.match(reminderContent({ id: 45, sender, content: '```\ncode\n```', userIds: [5] }, 'https://c', undefined), /\n````quote\n```\ncode\n```\n````$/, 'a fence longer than the message\'s own');
  const long = reminderContent({ id: 46, sender, content: 'x'.repeat(20_000), userIds: [5] }, 'https://c', undefined);
  t.equal(long.length, 10_000, 'cut to max_message_length as a whole');
  t.match(long, /\n\[message truncated\]\n```$/);
  t.equal(normalizeNote('\n\nnote  \n'), 'note');
  t.throws(() => normalizeNote('y'.repeat(1001)), { message: 'Maximum reminder note length: 1000 characters' });
});

test('due order and what is due', async (t) => {
  const queue = [{ id: 3, due: 10 }, { id: 1, due: 12 }, { id: 2, due: 10 }].sort(dueOrder);
  t.same(queue.map((e) => e.id), [2, 3, 1], 'by time, then by id');
  t.equal(dueCount(queue, 9_999), 0);
  t.equal(dueCount(queue, 10_000), 2);
  t.equal(dueCount(queue, 12_000), 3);
});

test('the scheduler keeps one timer on the earliest item', async (t) => {
  let now = 1_000_000;
  const scheduler = new Scheduler(() => now);
  t.teardown(() => scheduler.stop());
  const delivered: number[][] = [];
  scheduler.schedule(5, 1_000);
  t.same(scheduler.queue, [{ id: 5, due: 1_000 }], 'items wait before the scheduler runs');
  scheduler.run([{ id: 1, due: 1_001 }, { id: 2, due: 1_000 }], async (ids) => void delivered.push(ids));
  t.same(scheduler.queue.map((e) => e.id), [2, 1], 'LOAD replaces the queue with the store\'s items, in due order');
  scheduler.schedule(3, 1_000);
  scheduler.schedule(1, 1_005);
  scheduler.cancel(3);
  t.same(scheduler.queue, [{ id: 2, due: 1_000 }, { id: 1, due: 1_005 }]);
  // Due now: the timer fires at once and takes what is due.
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.same(delivered, [[2]]);
  t.same(scheduler.queue, [{ id: 1, due: 1_005 }]);
  now = 1_005_000;
  scheduler.schedule(4, 1_003);
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.same(delivered, [[2], [4, 1]], 'everything due at once, in due order');
  t.same(scheduler.queue, []);
});
