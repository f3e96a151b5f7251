/**
 * `POST /messages` to a channel with 100 subscribers, each holding a queue with a parked
 * long-poll that re-polls as soon as it is answered: messages acknowledged per second,
 * deliveries per second (messages × pollers answered), and the delay from acknowledgement to
 * arrival at the pollers, durable and not. The baseline is the bare server as a minimal event
 * server: the same request, each message answered to 100 parked polls of its own with events
 * of the size of Parley's, the pollers re-polling the same way.
 */
import { bodySize } from '../lib/baseline.js';
import { LongPoller, registerQueue } from '../lib/pollers.js';
import { startParley, untilCount, type RunningProcess } from '../lib/processes.js';
import { median, NOT_VALID, percentile, round, warningsFor, type Figure, type Scenario, type ScenarioContext } from '../lib/scenario.js';
import { basicAuth, newDataDir, Seeder, type Credentials } from '../lib/seed.js';

const SUBSCRIBERS = 100;
const CONNECTIONS = 16;
/**
 * Undelivered events a queue may hold on the measured server (PARLEY_QUEUE_MAX_EVENTS). The pollers
 * share the load generator's core, which wrk fills: while it sends they fall seconds behind, and
 * at the default of 2,000 the server dropped their queues, so nothing after could be counted. The
 * bare event server keeps whatever its pollers have not read; with this room Parley does the same
 * work (a round sends fewer messages than this), and the pollers catch up once the round ends.
 */
const QUEUE_ROOM = 1_000_000;

/** Waits until the pollers have received nothing new for 300 ms (at most 10 s). */
async function deliveriesSettled(pollers: readonly LongPoller[]): Promise<void> {
  const count = () => pollers.reduce((sum, p) => sum + p.arrivals.size, 0);
  const deadline = performance.now() + 10000;
  let seen = -1;
  while (performance.now() < deadline && count() !== seen) {
    seen = count();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const count = (pollers: readonly LongPoller[]) => pollers.reduce((sum, p) => sum + p.arrivals.size, 0);

/** Body bytes per message delivered to Parley's pollers, from a few messages sent one at a time. */
async function bytesPerDelivery(url: string, pollers: readonly LongPoller[], headers: Record<string, string>, body: string): Promise<number> {
  await deliveriesSettled(pollers);
  const [bytes, deliveries] = [pollers.reduce((sum, p) => sum + p.bytes, 0), count(pollers)];
  for (let i = 0; i < 10; i++) await (await fetch(url, { method: 'POST', headers, body })).arrayBuffer();
  await deliveriesSettled(pollers);
  return Math.round((pollers.reduce((sum, p) => sum + p.bytes, 0) - bytes) / Math.max(1, count(pollers) - deliveries));
}

/**
 * The bare server's pollers: a fresh set for each of its rounds, gone after it. Kept on, they fall
 * behind a bare server that takes far more messages than they can read, and their backlog would
 * take the client's core from Parley's next round.
 */
const barePollers: LongPoller[] = [];
let bareRound = 0;
let bareReconnects = 0;

async function measure(context: ScenarioContext, label: string, dataDir: string, sync: boolean, sender: Credentials, subscribers: Credentials[]) {
  const parley = await startParley({ dataDir, sync, profileDir: sync ? context.profileDir : undefined, env: { PARLEY_QUEUE_MAX_EVENTS: String(QUEUE_ROOM) } });
  const pollers: LongPoller[] = [];
  try {
    for (const user of subscribers) {
      const queueId = await registerQueue(parley.url, basicAuth(user), { event_types: '["message"]' });
      const poller = new LongPoller(parley.port, basicAuth(user), queueId);
      poller.start();
      pollers.push(poller);
    }
    const path = '/api/v1/messages';
    const plain = { authorization: basicAuth(sender), 'content-type': 'application/x-www-form-urlencoded' };
    const body = 'type=stream&to=send-bench&topic=load&content=' + encodeURIComponent('A message for a hundred people.');
    const eventBytes = await bytesPerDelivery(parley.url + path, pollers, plain, body);
    // Parley ignores these; they make the bare server fan each message out to its parked polls.
    const headers = { ...plain, 'x-bare-fanout': '1', 'x-bare-event-bytes': String(eventBytes) };
    const bareBytes = await bodySize(parley.url + path, { method: 'POST', headers, body });
    const bareDeliveries: number[] = [];
    // Deliveries per round on each side: every message event the pollers received from what the
    // round sent (those still in flight when it ended included), counted once the pollers settle.
    const parleyDeliveries: number[] = [];
    let parleyBefore = -1;
    const outcome = await context.throughput({
      name: `messages/s (${label})`,
      unit: 'msg/s',
      parley,
      bareBytes,
      load: { method: 'POST', path, headers, body, connections: CONNECTIONS, recordIds: true },
      // The pollers run on the client's core: let them finish before the baseline is measured.
      afterParleyRound: async () => {
        await deliveriesSettled(pollers);
        // The first call follows the warm-up, not a measured round.
        if (parleyBefore >= 0) parleyDeliveries.push(count(pollers) - parleyBefore);
        parleyBefore = count(pollers);
      },
      beforeBareRound: (bare) => parkOnBare(bare, subscribers),
      afterBareRound: async (bare) => {
        await deliveriesSettled(barePollers);
        bareDeliveries.push(count(barePollers));
        await forgetBarePollers(bare);
      },
    });
    const delays: number[] = [];
    let missing = 0;
    for (const run of outcome.parleyRuns) {
      for (const [id, ackedAt] of run.acks) {
        for (const poller of pollers) {
          const arrived = poller.arrivals.get(id);
          if (arrived === undefined) missing++;
          else delays.push(arrived - ackedAt);
        }
      }
    }
    delays.sort((a, b) => a - b);
    // Deliveries per round: each acknowledged message times the pollers that received it.
    const acked = outcome.parleyRuns.reduce((sum, r) => sum + r.acks.size, 0);
    const requests = outcome.parleyRuns.reduce((sum, r) => sum + r.requests, 0);
    const figures: Figure[] = [
      outcome.figure,
      deliveriesFigure(label, parleyDeliveries, bareDeliveries, context.settings.durationSeconds, outcome.figure),
      { name: `delivery p50 (${label})`, value: round(percentile(delays, 50), 2), unit: 'ms', measured: { ...outcome.figure.measured!, bare: undefined, ratios: undefined } },
      { name: `delivery p99 (${label})`, value: round(percentile(delays, 99), 2), unit: 'ms', measured: { ...outcome.figure.measured!, bare: undefined, ratios: undefined } },
    ];
    const reconnects = pollers.reduce((sum, p) => sum + p.reconnects, 0);
    const refused = pollers.filter((p) => p.refused !== undefined);
    if (missing > 0 || refused.length > 0) {
      // Deliveries that never arrived are counted neither in the rate nor in the delays, and a server with fewer pollers
      // to answer takes messages faster: say so where the figures are read.
      const warning = `${missing} deliveries not seen within 10 s${refused.length > 0 ? `, ${refused.length} pollers' queues dropped (they fell behind)` : ''}: ${NOT_VALID}`;
      for (const figure of figures) figure.warnings = [...(figure.warnings ?? []), warning];
    }
    return { figures, missing, unrecorded: requests - acked, eventBytes, reconnects, refused: refused.length, refusal: refused[0]?.refused };
  } finally {
    for (const poller of pollers) await poller.stop();
    await parley.stop();
  }
}

/** Deliveries per second of each round (messages × pollers answered), Parley against the bare event server. */
function deliveriesFigure(label: string, parley: number[], bare: number[], seconds: number, messages: Figure): Figure {
  const parleyRates = parley.map((n) => n / seconds);
  const bareRates = bare.map((n) => n / seconds);
  const ratios = parleyRates.map((rate, i) => round(rate / bareRates[i]!, 3));
  const ratio = round(median(ratios), 3);
  const spread: [number, number] = [Math.min(...ratios), Math.max(...ratios)];
  return {
    name: `deliveries/s (${label})`,
    value: Math.round(median(parleyRates)),
    unit: 'deliveries/s',
    baseline: Math.round(Math.max(...bareRates)),
    baselineOf: 'best round',
    ratio,
    spread,
    measured: messages.measured,
    // The same rounds as the messages: a client at the end of its core, or a ratio above 1 (the bare
    // event server delivering no more than the pollers read), says the baseline is not the limit.
    warnings: messages.measured ? warningsFor(messages.measured, ratio, spread) : undefined,
  };
}

/** Parks one poll per subscriber on the bare server, on queues of this round, and waits until every one is parked. */
async function parkOnBare(bare: RunningProcess, subscribers: Credentials[]): Promise<void> {
  bareRound++;
  for (const [i, user] of subscribers.entries()) {
    const poller = new LongPoller(bare.port, basicAuth(user), `bare-${bareRound}-${i}`);
    poller.start();
    barePollers.push(poller);
  }
  await untilCount(`${bare.url}/queues/parked`, (parked) => parked >= subscribers.length, 10000, 'the bare server did not park every poll');
}

/** Stops the round's bare pollers and has the bare server drop their queues. */
async function forgetBarePollers(bare: RunningProcess): Promise<void> {
  for (const poller of barePollers.splice(0)) {
    bareReconnects += poller.reconnects;
    await poller.stop();
  }
  await (await fetch(`${bare.url}/queues`, { method: 'DELETE' })).arrayBuffer();
}

export const send: Scenario = {
  name: 'send',
  description: 'POST /messages to a channel of 100 subscribers, each long-polling',
  async run(context) {
    bareReconnects = 0;
    const seed = async (label: string) => {
      const dataDir = newDataDir(label);
      const seeder = await Seeder.open(dataDir);
      const created = await seeder.users(SUBSCRIBERS, 'subscriber');
      const hamlet = seeder.services.org.users.byEmail('hamlet@example.com')!;
      await seeder.channel('send-bench', [...created, hamlet]);
      const seeded = { dataDir, sender: seeder.credentials(hamlet), subscribers: created.map((u) => seeder.credentials(u)) };
      await seeder.close();
      return seeded;
    };
    const durable = await seed('send-sync');
    const relaxed = await seed('send-nosync');
    context.log('  durable (PARLEY_SYNC=1)');
    const sync = await measure(context, 'durable', durable.dataDir, true, durable.sender, durable.subscribers);
    context.log('  not durable (PARLEY_SYNC=0)');
    const nosync = await measure(context, 'PARLEY_SYNC=0', relaxed.dataDir, false, relaxed.sender, relaxed.subscribers);
    const notes = [
      `Parley: ${CONNECTIONS} sending connections; ${SUBSCRIBERS} long-polling subscribers re-poll at once; they run in the runner, on the client's core, so the client share includes them`,
      `baseline: the bare server as a minimal event server (X-Bare-Fanout): each POST fans the message out to ${SUBSCRIBERS} parked polls of its own, as events of Parley's size per delivery (${sync.eventBytes} bytes durable, ${nosync.eventBytes} not), answered outside the request's handler each in its own cork; its pollers are the same client as Parley's, on fresh queues each round (parked before it, stopped after it settles: a bare server takes messages faster than the pollers read, and their backlog would otherwise run into Parley's rounds)`,
      `each queue may hold ${QUEUE_ROOM.toLocaleString('en')} undelivered events (PARLEY_QUEUE_MAX_EVENTS; 2,000 by default), as the bare server keeps all of them: the pollers share the load generator's core and fall behind while it sends, so the delivery delays include their lag`,
      'delivery is timed from the moment the load generator reads the acknowledgement; the server writes the polls\' answers in the same turn as the acknowledgement, so a negative delay means the pollers read theirs first',
    ];
    if (sync.missing || nosync.missing) notes.push(`deliveries not seen within 10 s: ${sync.missing} (durable), ${nosync.missing} (not durable)`);
    if (sync.refused || nosync.refused) {
      // A poller that fell too far behind loses its queue (PARLEY_QUEUE_MAX_EVENTS): its deliveries are not counted, and the figures of that side do not hold.
      notes.push(`⚠ pollers whose queue the server dropped (they fell behind), which then stopped: ${sync.refused} (durable), ${nosync.refused} (not durable); the delivery figures of that side are not valid; the server said: ${sync.refusal ?? nosync.refusal}`);
    }
    if (sync.reconnects || nosync.reconnects || bareReconnects) {
      notes.push(`poll connections closed by the server and opened again (the poll repeated from the last event read): ${sync.reconnects} (durable), ${nosync.reconnects} (not durable), ${bareReconnects} (bare server)`);
    }
    if (sync.unrecorded || nosync.unrecorded) notes.push(`acknowledgements without a recorded id: ${sync.unrecorded} (durable), ${nosync.unrecorded} (not durable)`);
    return { scenario: 'send', description: this.description, figures: [...sync.figures, ...nosync.figures], notes };
  },
};
