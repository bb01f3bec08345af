import type { Logger } from 'pino';
import { unreachableDependency } from './http/errors';

/**
 * Node ends the process on an unhandled rejection or an uncaught exception. One that a dependency
 * outage caused (Postgres restarting: 'the database system is shutting down', a cut connection;
 * NATS away) must not: the pool, the offer index's listener, the relays and the consumers each
 * reconnect on their own, while a process that exits must first wait out the outage to migrate
 * and connect again, and its supervisor waits longer after each exit (issue 51: swaps answered
 * 503 for 17-19 s after a Postgres restart where the services that stayed up took 2 s). Such an
 * error is logged as an error naming the dependency, so the place it escaped from can be found
 * and handled; anything else is a bug and still ends the process, as Node would.
 *
 * Returns what removes the handlers (tests).
 */
export function serveThroughOutages(log: Pick<Logger, 'error'>, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const handle = (kind: 'unhandled rejection' | 'uncaught exception') => (error: unknown) => {
    const dependency = unreachableDependency(error);
    if (dependency) {
      log.error({ err: error, dependency }, `${kind} from a ${dependency} outage; the process serves on`);
      return;
    }
    // pino writes asynchronously: the reason goes to stderr itself, before the process ends.
    process.stderr.write(`${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    exit(1);
  };
  const onRejection = handle('unhandled rejection');
  const onException = handle('uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
