/** Entry point: configuration from the environment, start, and graceful shutdown on SIGTERM/SIGINT. */
import { configFromEnv } from './config.js';
import { lowerHelperThreads } from './ops/helper-threads.js';
import { startServer, type RunningServer } from './server.js';
import { startupFailure } from './startup-failure.js';

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

  let server: Pick<RunningServer, 'logger' | 'stop'> | undefined;
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    if (!server) process.exit(0);
    server.logger.warn({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server!.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const config = configFromEnv();
  // The event loop before background work on a shared core (see ops/helper-threads.ts).
  lowerHelperThreads(config.helperThreadNice);
  // Cluster mode (docs/cluster.md) is loaded only when asked for: the embedded server never imports it.
  if (process.env.PARLEY_CLUSTER_NATS) {
    const [{ clusterConfigFromEnv }, { startClusterNode }] = await Promise.all([import('./cluster/cluster-config.js'), import('./cluster/start.js')]);
    const node = await startClusterNode(config, clusterConfigFromEnv(process.env, config.host, config.port)!);
    server = { logger: node.server.logger, stop: node.stop };
    return;
  }
  server = await startServer(config);
}

main().catch((error: unknown) => {
  const { line, exitCode } = startupFailure(error);
  process.stderr.write(`${line}\n`);
  process.exit(exitCode);
});
