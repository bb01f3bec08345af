import pino, { type Logger } from 'pino';
import type { BaseConfig } from './config';

export type { Logger };

export function createLogger(name: string, config: Pick<BaseConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>): Logger {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY);
  return pino({
    name,
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.cookie', 'password', '*.password', 'newPassword', 'currentPassword'], remove: true },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' } } }
      : {}),
  });
}
