/** The automatic follow rules (domain/topic-follow.ts) and the one muted rule (domain/topic-visibility.ts), case by case as Zulip's. */
import { test } from 'tap';
import { automaticPolicy, followsWhenMentioned } from '../../src/domain/topic-follow.js';
import { mutedByChannel, topicMuted, VisibilityPolicy } from '../../src/domain/topic-visibility.js';

const { INHERIT, MUTED, UNMUTED, FOLLOWED } = VisibilityPolicy;
const person = (settings: Record<string, unknown> = {}) => ({ isBot: false, settings });

test('sending: follow on initiation by default, unmute in a muted channel on send', async (t) => {
  t.equal(automaticPolicy(person(), { current: INHERIT, channelMuted: false, initiated: true }), FOLLOWED, 'starting a topic follows it');
  t.equal(automaticPolicy(person(), { current: INHERIT, channelMuted: false, initiated: false }), undefined, 'replying changes nothing');
  t.equal(automaticPolicy(person(), { current: INHERIT, channelMuted: true, initiated: false }), UNMUTED, 'replying in a muted channel unmutes');
  t.equal(automaticPolicy(person(), { current: FOLLOWED, channelMuted: true, initiated: true }), undefined, 'a followed topic stays so');
  t.equal(automaticPolicy(person(), { current: UNMUTED, channelMuted: true, initiated: false }), undefined, 'already unmuted');
  t.equal(automaticPolicy(person(), { current: MUTED, channelMuted: true, initiated: false }), UNMUTED, 'a muted topic in a muted channel is unmuted by sending');
  t.equal(automaticPolicy(person({ automatically_follow_topics_policy: 2 }), { current: INHERIT, channelMuted: false, initiated: false }), FOLLOWED, 'follow on send');
  t.equal(automaticPolicy(person({ automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 }), { current: INHERIT, channelMuted: true, initiated: true }), undefined, 'never');
  t.equal(automaticPolicy({ isBot: true, settings: {} }, { current: INHERIT, channelMuted: false, initiated: true }), undefined, 'bots follow nothing');
});

test('mentions: the mentioned follow unless they muted, already follow, or turned it off', async (t) => {
  t.ok(followsWhenMentioned(person(), INHERIT));
  t.ok(followsWhenMentioned(person(), UNMUTED));
  t.notOk(followsWhenMentioned(person(), MUTED));
  t.notOk(followsWhenMentioned(person(), FOLLOWED));
  t.notOk(followsWhenMentioned(person({ automatically_follow_topics_where_mentioned: false }), INHERIT));
  t.notOk(followsWhenMentioned({ isBot: true, settings: {} }, INHERIT));
});

test('muted for a user: the topic muted, or the channel muted without the topic unmuted or followed', async (t) => {
  t.ok(topicMuted(MUTED, false));
  t.ok(topicMuted(INHERIT, true));
  t.notOk(topicMuted(UNMUTED, true));
  t.notOk(topicMuted(FOLLOWED, true));
  t.notOk(topicMuted(INHERIT, false));
  t.notOk(mutedByChannel(MUTED, false), 'a muted topic in an unmuted channel is not muted by the channel');
  t.ok(mutedByChannel(INHERIT, true));
});
