/** Id-keyed records stay in V8's dictionary form (checked with V8's own test intrinsic) and behave as plain records. */
import { execFileSync } from 'node:child_process';
import { test } from 'tap';
import { copyIdKeyed, idKeyedRecord, withIdKey } from '../../src/actors/id-keyed-record.js';
import { encode, decode } from '../../src/store/codec.js';
import { subscriptionsKind } from '../../src/actors/subscriptions.js';

const MODULE = new URL('../../src/actors/id-keyed-record.js', import.meta.url).href;
const SUBSCRIPTIONS = new URL('../../src/actors/subscriptions.js', import.meta.url).href;

/** Runs `body` in a node with V8's intrinsics and returns what it prints. */
function withIntrinsics(body: string): string {
  const script = `import { copyIdKeyed, idKeyedRecord, withIdKey } from '${MODULE}';\nimport { subscriptionsKind } from '${SUBSCRIPTIONS}';\n${body}`;
  return execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

test('channel ids less than 1,024 apart: a plain object gets array storage, an id-keyed record a dictionary', async (t) => {
  const printed = withIntrinsics(`
    const ids = [7, 22, 213, 260, 933, 1500, 2100];
    const plain = {}; for (const id of ids) plain[id] = { active: true };
    const keyed = idKeyedRecord(); for (const id of ids) keyed[id] = { active: true };
    const spread = { ...keyed, 2101: { active: false } };
    const added = withIdKey(keyed, 2101, { active: false });
    const copied = copyIdKeyed(plain);
    const restored = subscriptionsKind.restored({ value: 'tracking', context: { userId: 1, channels: plain, topics: {} } });
    console.log(JSON.stringify([%HasDictionaryElements(plain), %HasDictionaryElements(keyed), %HasDictionaryElements(spread),
      %HasDictionaryElements(added), %HasDictionaryElements(copied), %HasDictionaryElements(restored.context.channels)]));
  `);
  t.same(JSON.parse(printed), [false, true, false, true, true, true], 'plain and spread copies hold arrays; every id-keyed form a dictionary');
});

test('an id-keyed record reads, enumerates and encodes as the plain record would', async (t) => {
  const plain: Record<string, number> = { 3: 30, 1: 10, 1200: 120 };
  const keyed = copyIdKeyed(plain);
  t.same(Object.entries(keyed), Object.entries(plain), 'same entries, ids ascending');
  t.same(keyed, plain);
  t.equal(keyed[1200], 120);
  const added = withIdKey(keyed, 2, 20);
  t.same(Object.keys(added), ['1', '2', '3', '1200']);
  t.notOk('2' in keyed, 'the source is left unchanged');
  t.same(decode(encode(added)), { ...plain, 2: 20 }, 'stored the same way');
  t.same(Object.keys(idKeyedRecord()), [], 'empty: the far index is gone');
});

test('a restored subscriptions snapshot keeps its state', async (t) => {
  const snapshot = { status: 'active', value: 'tracking', context: { userId: 4, channels: { 12: { active: true, received: [5], color: '#fff', isMuted: false, pinToTop: false, desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null } }, topics: {} } };
  const restored = subscriptionsKind.restored!(snapshot as never) as unknown as typeof snapshot;
  t.same(restored, snapshot);
});

test('restored subscriptions are built in one shape with their fields inside, colours shared; an old one without intervals stays without', async (t) => {
  const state = (color: string) => decode(encode({ active: true, received: [5], color, isMuted: false, pinToTop: false, desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null }));
  const printed = withIntrinsics(`
    import { decode, encode } from '${new URL('../../src/store/codec.js', import.meta.url).href}';
    const state = (color) => decode(encode({ active: true, received: [5], color, isMuted: false, pinToTop: false, desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null }));
    const decoded = state('#c2c2c2');
    const { channels } = subscriptionsKind.restored({ value: 'tracking', context: { userId: 1, channels: { 3: decoded, 9: state('#c2c2c2') }, topics: {} } }).context;
    const literal = { active: false, received: [1], color: 'x', isMuted: true, pinToTop: true, desktopNotifications: true, audibleNotifications: true, pushNotifications: true, emailNotifications: true, wildcardMentionsNotify: true };
    console.log(JSON.stringify([%HaveSameMap(decoded, literal), %HaveSameMap(channels[3], literal), %HaveSameMap(channels[9], literal), channels[3].color === channels[9].color]));
  `);
  t.same(JSON.parse(printed), [false, true, true, true], 'a decoded subscription is not shaped as a literal; restored ones are, with one colour string');
  const old = { ...(state('#fff') as object), received: undefined } as Record<string, unknown>;
  delete old.received;
  const restored = subscriptionsKind.restored!({ value: 'tracking', context: { userId: 1, channels: { 3: old }, topics: {} } } as never) as unknown as { context: { channels: Record<string, object> } };
  t.same(restored.context.channels[3], old);
  t.notOk('received' in restored.context.channels[3]!, 'no intervals key where there was none');
});
