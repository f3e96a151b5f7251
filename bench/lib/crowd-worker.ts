/**
 * A load-generator process of the `mixed` scenario: holds a slice of the simulated people
 * (crowd.ts) and does what its parent (crowd-driver.ts) asks over IPC, one command at a time.
 */
import { Crowd, type CrowdPerson, type StepPlan } from './crowd.js';

export type WorkerCommand =
  | { type: 'init'; port: number; people: CrowdPerson[]; seed: number }
  | { type: 'prepare'; active: number }
  | { type: 'run'; step: StepPlan }
  | { type: 'close' };

let crowd: Crowd | undefined;

async function handle(command: WorkerCommand): Promise<unknown> {
  switch (command.type) {
    case 'init':
      crowd = new Crowd(command.port, command.people, command.seed);
      return {};
    case 'prepare':
      return crowd!.prepare(command.active);
    case 'run':
      return crowd!.run(command.step);
    case 'close':
      crowd?.close();
      setImmediate(() => process.exit(0));
      return {};
  }
}

process.on('message', (command: WorkerCommand) => {
  handle(command).then(
    (reply) => process.send!({ ok: true, reply }),
    (error: unknown) => process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
