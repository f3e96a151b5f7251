/** The search index after kill -9: catch-up from the store at start, and right answers meanwhile. */
import { test } from 'tap';
import { login } from '../helpers/client.js';
import { durableServerEnv, killAndRemove, startProcess, exited } from '../helpers/process.js';
import { send, fetchIds } from '../helpers/messages.js';

test('after kill -9 the index catches up, and searches meanwhile are right', async (t) => {
  const { dataDir, env } = await durableServerEnv();
  let running = await startProcess(env);
  t.teardown(() => killAndRemove(running.child, dataDir));
  let hamlet = await login(running.url, 'hamlet@example.com');
  const sent: number[] = [];
  // Enough messages that the index is still taking them in when the process dies.
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(Array.from({ length: 20 }, async (_, i) => sent.push(await send(hamlet, 'Denmark', 'crash', `albatross number ${batch * 20 + i}`))));
  }
  const edited = sent[0]!;
  t.equal((await hamlet.patch(`/messages/${edited}`, { content: 'kestrel instead' })).status, 200);
  running.child.kill('SIGKILL');
  await exited(running.child);
  running = await startProcess(env);
  hamlet = await login(running.url, 'hamlet@example.com');
  const found = await fetchIds(hamlet, { anchor: 'newest', num_before: 1000, narrow: [['search', 'albatross']] });
  t.same(found, sent.slice(1).sort((a, b) => a - b), 'every acknowledged message is found, once');
  t.same(await fetchIds(hamlet, { anchor: 'newest', num_before: 10, narrow: [['search', 'kestrel']] }), [edited], 'the edit acknowledged before the kill is found');
  // A new message after the restart is found too.
  const later = await send(hamlet, 'Denmark', 'crash', 'albatross after restart');
  const all = await fetchIds(hamlet, { anchor: 'newest', num_before: 1000, narrow: [['search', 'albatross']] });
  t.equal(all.at(-1), later);
  t.equal(all.length, sent.length);
});

