/** The structured logger: JSON lines on stderr, quiet (warnings and errors) unless asked. */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined }, pino.destination({ dest: 2, sync: false }));
}
