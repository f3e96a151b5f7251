/** Unit tests of shared/with-fields.ts: a copy with some fields set, as `{ ...base, ...extra }` means, in one hidden class per kind of copy. */
import { execFileSync } from 'node:child_process';
import { test } from 'tap';
import { withFields } from '../../src/shared/with-fields.js';

test('the copy is what the spread literal gives: same keys in the same order, inputs untouched', async (t) => {
  const base = { id: 3, kind: 'send', failed: false, userIds: [1, 2] };
  const copy = withFields(base, { failed: true, failureMessage: 'late' });
  const spread = { ...base, failed: true, failureMessage: 'late' };
  t.same(copy, spread);
  t.same(Object.keys(copy), Object.keys(spread), 'a replaced field keeps its place, a new one goes last');
  t.not(copy, base, 'a new object');
  t.same(base, { id: 3, kind: 'send', failed: false, userIds: [1, 2] }, 'the base is unchanged');
  t.equal(copy.userIds, base.userIds, 'shallow, as the spread');
  const withUndefined = withFields(base, { failureMessage: undefined });
  t.ok('failureMessage' in withUndefined, 'an undefined field is set, as the spread sets it');
});

test('copies made alike share one hidden class, where the spread literal made one per copy (checked with V8\'s intrinsics)', async (t) => {
  const url = new URL('../../src/shared/with-fields.js', import.meta.url).href;
  // Enough copies for the literal's site to be warm (V8 changes how it copies after a few).
  const script = `
    import { withFields } from '${url}';
    const base = (i) => ({ kind: 'send', senderId: 1, type: 'stream', content: 'c' + i, deliverAt: 1795873212 + i, failed: false });
    const copies = [], literals = [];
    for (let i = 0; i < 200; i++) { copies.push(withFields(base(i), { id: i })); literals.push({ ...base(i), id: i }); }
    const distinct = (list) => list.filter((o, i) => i === 0 || !%HaveSameMap(o, list[i - 1])).length;
    console.log(JSON.stringify([distinct(copies), distinct(literals)]));`;
  const [copies, literals] = JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim()) as [number, number];
  t.equal(copies, 1, 'one hidden class for 200 copies');
  t.comment(`the spread literal: ${literals} hidden classes for 200 copies on this Node`);
});
