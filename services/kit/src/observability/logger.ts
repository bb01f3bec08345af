import pino, { type Logger } from 'pino';
import type { BaseConfig } from '../config';
import { traceFields } from './tracing';

export type { Logger };

/** `output`: where JSON lines go instead of stdout (tests read them). */
export function createLogger(name: string, config: Pick<BaseConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>, output?: pino.DestinationStream): Logger {
  const pretty = !output && (config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY));
  const options = {
    name,
    level: config.LOG_LEVEL,
    // Every line written while handling a request, an RPC or an event names its trace.
    mixin: traceFields,
    redact: { paths: ['req.headers.cookie', 'password', '*.password', 'newPassword', 'currentPassword'], remove: true },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } } }
      : {}),
  };
  if (output) return pino(options, output);
  if (pretty || config.LOG_LEVEL === 'silent') return pino(options);
  // JSON lines are gathered and written a few kilobytes at a time: a write per line (one system
  // call each) cost a busy gateway a quarter of its time. A quiet process still writes what it
  // has every FLUSH_MS, and whatever is left when it exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  setInterval(() => destination.flush(), FLUSH_MS).unref();
  return pino(options, destination);
}

const BATCH_BYTES = 4096;
const FLUSH_MS = 1000;
