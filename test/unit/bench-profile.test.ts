/** The bench's CPU-profile summary (bench/lib/profile.ts): self time per function, over a window of the run or all of it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'tap';
import { newestProfile, summarizeProfile } from '../../bench/lib/profile.js';

test('self time per function, windowed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-profile-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const frame = (functionName: string, url = 'file:///x/dist/src/a.js', lineNumber = 9) => ({ functionName, url, lineNumber });
  // Samples at 1,000 + 10 µs each: ids 2 2 3 2 3 3 3 3 (times 1010 … 1080).
  const profile = {
    nodes: [{ id: 1, callFrame: frame('(root)', '') }, { id: 2, callFrame: frame('encode') }, { id: 3, callFrame: frame('', 'file:///x/dist/src/b.js', 0) }],
    startTime: 1000,
    samples: [2, 2, 3, 2, 3, 3, 3, 3],
    timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10],
  };
  const file = join(dir, 'one.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  t.equal(newestProfile(dir, 0), file, 'found');
  t.equal(newestProfile(dir, Date.now() + 60_000), undefined, 'none written after a later moment');
  const all = summarizeProfile(file);
  t.same(all.top, [{ name: '(anonymous) b.js:1', share: 0.625 }, { name: 'encode a.js:10', share: 0.375 }]);
  t.equal(all.samples, 8);
  const early = summarizeProfile(file, [1005, 1045]);
  t.ok(early.windowed);
  t.same(early.top, [{ name: 'encode a.js:10', share: 0.75 }, { name: '(anonymous) b.js:1', share: 0.25 }], 'only the samples in the window');
  const outside = summarizeProfile(file, [5000, 6000]);
  t.notOk(outside.windowed, 'a window without samples falls back to the whole run, and says so');
  t.equal(outside.samples, 8);
});
