/** Entry point: configuration from the environment, start, and graceful shutdown on SIGTERM/SIGINT. */
import { configFromEnv } from './config.js';
import { startServer, type RunningServer } from './server.js';

async function main(): Promise<void> {
  // Started with --expose-gc (as the benchmarks do), SIGUSR2 collects garbage so that memory
  // can be measured as what is retained, not what happens to be allocated. Registered before
  // the ready line, so that nobody can signal a process that is not listening yet.
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) {
    process.on('SIGUSR2', () => {
      collect();
      process.stderr.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
    });
  }

  let server: RunningServer | undefined;
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    if (!server) process.exit(0);
    server.services.logger.warn({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server!.services.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  server = await startServer(configFromEnv());
}

main().catch((error: unknown) => {
  // A refusal by the environment (no room, a directory in use) is a sentence and exit code 2; a bug is a stack and 1.
  const refused = (error as { exitCode?: unknown }).exitCode === 2;
  const text = error instanceof Error ? (refused ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(`Parley failed to start: ${text}\n`);
  process.exit(refused ? 2 : 1);
});
