/** Entry point: configuration from the environment, start, and graceful shutdown on SIGTERM/SIGINT. */
import { configFromEnv } from './config.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  const config = configFromEnv();
  const server = await startServer(config);
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    server.services.logger.warn({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.services.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Parley failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
