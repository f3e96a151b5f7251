/**
 * Exactly once across a crash: the real server process is killed (-9) around the moment a burst
 * of scheduled messages is delivered, then started again. Every scheduled message must be sent
 * exactly once, whether the kill came before, during or after the delivery's write: the message
 * and the removal of the scheduled item are one store batch.
 */
import { test } from 'tap';
import { login, type Api } from '../helpers/client.js';
import { delay, pollPause } from '../helpers/events.js';
import { durableServerEnv, exited, killAndRemove, startProcess } from '../helpers/process.js';
import { VERONA } from '../helpers/demo-ids.js';
import { DELIVERY_TIME_IN_PAST } from '../../src/domain/scheduled-messages.js';

const BURST = 40;
/**
 * Where the kill lands, in ms after the due second began: before, during and after the delivery's
 * write (each cycle costs two process starts; 0 and 8 ms added nothing that 3 ms does not cover).
 */
const KILL_OFFSETS_MS = [-30, 3, 25];

async function pending(api: Api): Promise<number> {
  const response = await api.get('/scheduled_messages');
  if (response.status !== 200) throw new Error(`GET /scheduled_messages failed: ${JSON.stringify(response.body)}`);
  return response.body.scheduled_messages.length;
}

/** Schedules the burst, all due at `due`; false when the server found that time already past (the machine was too slow). */
async function scheduleBurst(hamlet: Api, topic: string, cycle: number, due: number): Promise<boolean> {
  for (let i = 0; i < BURST; i++) {
    const response = await hamlet.post('/scheduled_messages', { type: 'stream', to: VERONA, topic, content: `burst ${cycle}.${i}`, scheduled_delivery_timestamp: due });
    if (response.status === 400 && response.body.msg === DELIVERY_TIME_IN_PAST) return false;
    if (response.status !== 200) throw new Error(`schedule failed: ${JSON.stringify(response.body)}`);
  }
  return true;
}

/** How many messages of the topic hold each content. */
async function sentCounts(api: Api, topic: string): Promise<Map<string, number>> {
  const response = await api.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [{ operator: 'channel', operand: VERONA }, { operator: 'topic', operand: topic }], apply_markdown: false });
  const counts = new Map<string, number>();
  for (const message of response.body.messages as { content: string }[]) counts.set(message.content, (counts.get(message.content) ?? 0) + 1);
  return counts;
}

test('kill -9 around a delivery: every scheduled message is sent exactly once', async (t) => {
  const { dataDir, env } = await durableServerEnv({ PARLEY_LOG_LEVEL: 'error' });
  let server = await startProcess(env);
  t.teardown(() => killAndRemove(server.child, dataDir));
  let hamlet = await login(server.url, 'hamlet@example.com');

  for (const [cycle, offset] of KILL_OFFSETS_MS.entries()) {
    // Lead time for 40 requests on a loaded machine (two seconds were not always enough). A burst
    // the machine could not schedule before its due time starts over on a topic of its own with
    // twice the lead; what was scheduled of the slow one is delivered and not checked.
    let topic = '';
    let due = 0;
    for (let lead = 4; ; lead *= 2) {
      topic = `crash ${cycle}, lead ${lead} s`;
      due = Math.floor(Date.now() / 1000) + lead;
      if (await scheduleBurst(hamlet, topic, cycle, due)) break;
      if (lead >= 32) throw new Error('40 scheduled messages could not be sent within 32 s');
    }
    await delay(Math.max(0, due * 1000 + offset - Date.now()));
    server.child.kill('SIGKILL');
    await exited(server.child);
    server = await startProcess(env);
    hamlet = await login(server.url, 'hamlet@example.com');
    const until = Date.now() + 60_000;
    for (let look = 0; (await pending(hamlet)) > 0 && Date.now() < until; look++) await delay(pollPause(look));
    t.equal(await pending(hamlet), 0, `cycle ${cycle} (kill at ${offset} ms): nothing left waiting`);
    // An item leaves the list when its delivery's batch is queued, and GET /messages reads what is
    // on disk: the last turn's messages may still be on their way to it for a moment.
    let counts = await sentCounts(hamlet, topic);
    for (let look = 0; counts.size < BURST && Date.now() < until; look++) {
      await delay(pollPause(look));
      counts = await sentCounts(hamlet, topic);
    }
    const wrong = [...Array(BURST).keys()].map((i) => `burst ${cycle}.${i}`).filter((content) => counts.get(content) !== 1);
    t.same(wrong, [], `cycle ${cycle} (kill at ${offset} ms): each of ${BURST} sent exactly once`);
    t.equal(counts.size, BURST, 'and nothing else');
  }
});
