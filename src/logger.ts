import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. The key never reaches a log line: the gateway never
 * logs it, and the paths where it could appear are redacted as a second guard.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'sports-graph' },
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'req.headers["x-api-key"]'],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
