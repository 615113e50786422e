import { Logger, LoggerService } from '@nestjs/common';

import { commonEnv, loadEnv, oneOf } from '@onramp/config';

import { JsonLogger } from './json-logger';

// LOG_FORMAT=json (the production default): JSON lines on stdout; pretty (the sandbox default):
// Nest's coloured console lines, as `npm start` shows them.
export function logFormat(source: NodeJS.ProcessEnv = process.env): 'json' | 'pretty' {
  return loadEnv(
    {
      ONRAMP_MODE: commonEnv.ONRAMP_MODE,
      LOG_FORMAT: oneOf(['json', 'pretty'] as const, {
        default: source['ONRAMP_MODE'] === 'production' ? ('json' as const) : ('pretty' as const),
      }),
    },
    source,
  ).LOG_FORMAT;
}

// Called first in an app's main.ts: with LOG_FORMAT=json every Nest logger of the process, the
// boot-time configuration errors included, writes JSON. Returns the logger for NestFactory, or
// undefined for Nest's own.
export function installAppLogger(
  service: string,
  source: NodeJS.ProcessEnv = process.env,
): LoggerService | undefined {
  const env = loadEnv({ LOG_LEVEL: commonEnv.LOG_LEVEL }, { LOG_LEVEL: source['LOG_LEVEL'] });
  if (logFormat(source) !== 'json') return undefined;
  const logger = new JsonLogger(service, env.LOG_LEVEL);
  Logger.overrideLogger(logger);
  return logger;
}
