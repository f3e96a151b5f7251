/**
 * The cluster on NATS JetStream (docs/cluster.md), on loopback: three nats-servers, three Parley
 * nodes, two organizations. The owner of one is killed under a load of sends: a standby takes
 * over, every answered send is there exactly once and no id is reused. Then the new owner is
 * frozen past its lease and resumed: its writes are refused (fencing). An owner stopped with
 * SIGTERM hands over. An organization created on one node is served through all. Then one
 * nats-server is killed: both organizations go on. Last, the node killed in the failover (and
 * restarted) is left alone: it serves every send answered before. `npm run cluster-test -- --cycles N` runs more cycles.
 */
import { test } from 'tap';
import { LocalCluster, natsServerPath, sleep } from '../helpers/cluster.js';
import { runCli } from '../helpers/process.js';
import { failoverCycle, messagesOf } from '../helpers/cluster-load.js';

const skip = natsServerPath() ? false : 'nats-server is not installed (Debian: apt-get install nats-server; .ci/run installs it)';

test('a cluster of three nodes on JetStream', { skip, timeout: 180_000 }, async (t) => {
  const cluster = await LocalCluster.start();
  t.teardown(() => cluster.stop());
  const [root, b] = cluster.organizations as [typeof cluster.organizations[0], typeof cluster.organizations[0]];
  // The sends answered in the failover, and the node killed there (restarted at once, on its data).
  const answered = new Map<string, number>();
  let restarted = -1;

  await t.test('kill -9 of the owner under load: a standby serves, nothing answered is lost or doubled', async (t) => {
    const result = await failoverCycle(cluster, root, 'c1', 15, 15, 3, answered);
    restarted = result.killed;
    t.ok(result.acked >= 30, `${result.acked} sends answered`);
    t.equal(result.lost, 0, 'every answered send is stored with its id');
    t.equal(result.duplicated, 0, 'none is stored twice');
    t.equal(result.reusedIds, 0, 'no message id is used twice');
    t.ok(result.changes > 0, `${result.changes} reactions and stars answered`);
    t.equal(result.changesLost, 0, 'every answered reaction and star is there');
    t.notOk(result.queueLost, 'the event queue is there after the failover');
    t.equal(result.eventsMissing, 0, "every answered message's event reached the queue");
    t.not(result.newOwner, result.killed, 'another node serves the organization');
    t.comment(`failover: ${result.failoverMs} ms from kill -9 to the first answered send (lease 3 s)`);
    const other = await cluster.nodes[result.newOwner]!.client(b).get('/users/me');
    t.equal(other.status, 200, 'the other organization is served too');
  });

  await t.test('an owner frozen past its lease cannot write when it resumes (fencing)', async (t) => {
    const frozen = (await cluster.ownerOf(root))!;
    cluster.nodes[frozen]!.child.signal('SIGSTOP');
    const next = await cluster.waitOwnerOtherThan(root, frozen);
    const fresh = await cluster.nodes[next]!.client(root).post('/messages', { type: 'stream', to: 'general', topic: 'failover', content: 'after-takeover' });
    t.equal(fresh.status, 200, 'the new owner writes');
    cluster.nodes[frozen]!.child.signal('SIGCONT');
    // Straight to the resumed node's own server, past the forwarder: whether its lease timer or
    // this request runs first, the write is refused (not served here, or its append is fenced).
    const stale = await cluster.nodes[frozen]!.direct(root).post('/messages', { type: 'stream', to: 'general', topic: 'failover', content: 'stale-write' });
    t.not(stale.status, 200, `the resumed node's write is refused (${stale.status} ${stale.body?.code ?? ''})`);
    const stored = await messagesOf(cluster.nodes[next]!, root);
    t.ok(stored.has('after-takeover'), "the new owner's write is there");
    t.notOk(stored.has('stale-write'), "the stale owner's write is not");
  });

  await t.test('an owner stopped gracefully hands its organizations over', async (t) => {
    const owner = (await cluster.ownerOf(b))!;
    const via = cluster.nodes.find((_, i) => i !== owner)!;
    const before = await via.client(b).post('/messages', { type: 'stream', to: 'general', topic: 'failover', content: 'before-stop' });
    t.equal(before.status, 200);
    cluster.nodes[owner]!.child.signal('SIGTERM');
    await cluster.nodes[owner]!.child.exited();
    const stopped = performance.now();
    const after = await via.client(b).post('/messages', { type: 'stream', to: 'general', topic: 'failover', content: 'after-stop' });
    t.equal(after.status, 200, 'a send after the stop is answered by the new owner');
    t.comment(`hand-over: ${Math.round(performance.now() - stopped)} ms from the exit to the next answered send`);
    const stored = await messagesOf(via, b);
    t.ok(stored.has('before-stop') && stored.has('after-stop'), 'both sends are there');
    await cluster.startNode(owner, false);
  });

  await t.test('an organization created on one node is served through every node', async (t) => {
    const maker = cluster.nodes[1]!;
    const args = ['create-organization', '--subdomain', 'made', '--name', 'Made in the cluster', '--owner-email', 'owner@made.example', '--password', 'made-owner-password'];
    const created = await runCli(args, { PARLEY_DATA_DIR: maker.dataDir });
    t.equal(created.code, 0, created.stderr);
    const apiKey = /^API key:\s+(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const org = { realm: 0, host: 'made.localhost:80', email: 'owner@made.example', apiKey };
    for (const node of cluster.nodes) {
      // The other nodes learn of it from the cluster's list, then apply its first entries.
      let status = 0;
      for (let tries = 0; tries < 150 && status !== 200; tries++) {
        status = (await node.client(org).get('/users/me')).status;
        if (status !== 200) await sleep(100);
      }
      t.equal(status, 200, `served through ${node.name}`);
    }
    const sent = await cluster.nodes[2]!.client(org).post('/messages', { type: 'stream', to: 'general', topic: 'new', content: 'first words' });
    t.equal(sent.status, 200, 'a send to it is answered');
  });

  await t.test('one nats-server killed: both organizations go on', async (t) => {
    cluster.killNats(0);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      for (const org of [root, b]) {
        const answer = await cluster.nodes[i % 3]!.client(org).post('/messages', { type: 'stream', to: 'general', topic: 'nats-down', content: `n-${i}` });
        if (answer.status !== 200) t.comment(`send ${i} to ${org.realm}: ${answer.status} ${JSON.stringify(answer.body)}`);
        statuses.push(answer.status);
      }
    }
    t.same(statuses, Array(10).fill(200), 'every send answered');
  });

  await t.test('the node restarted after its kill caught up: alone, it serves everything answered before', async (t) => {
    for (const [i, node] of cluster.nodes.entries()) {
      if (i === restarted) continue;
      node.child.signal('SIGKILL');
      await node.child.exited();
    }
    for (const org of [root, b]) t.equal(await cluster.waitOwner(org, restarted), restarted, `it serves organization ${org.realm}`);
    const stored = await messagesOf(cluster.nodes[restarted]!, root);
    const missing = [...answered].filter(([content, id]) => !stored.get(content)?.some((copy) => copy.id === id));
    t.same(missing, [], `all ${answered.size} sends answered during the failover are there`);
    t.ok(stored.has('after-takeover'), 'and the send made after the fencing');
  });
});
