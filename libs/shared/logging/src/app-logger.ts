import { Logger, LoggerService } from '@nestjs/common';

import { commonEnv, loadEnv, oneOf } from '@onramp/config';

import { JsonLogger, LogLevelName } from './json-logger';

// LOG_FORMAT=json (the production default): JSON lines on stdout; pretty (the sandbox default):
// Nest's coloured console lines, as `npm start` shows them.
export interface LoggingConfig {
  format: 'json' | 'pretty';
  level: LogLevelName;
}

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadLoggingConfig(source: NodeJS.ProcessEnv): LoggingConfig {
  const env = loadEnv(
    {
      ONRAMP_MODE: commonEnv.ONRAMP_MODE,
      LOG_LEVEL: commonEnv.LOG_LEVEL,
      LOG_FORMAT: oneOf(['json', 'pretty'] as const, {
        default: source['ONRAMP_MODE'] === 'production' ? ('json' as const) : ('pretty' as const),
      }),
    },
    { ONRAMP_MODE: source['ONRAMP_MODE'], LOG_LEVEL: source['LOG_LEVEL'], LOG_FORMAT: source['LOG_FORMAT'] },
  );
  return { format: env.LOG_FORMAT, level: env.LOG_LEVEL };
}

export function logFormat(source: NodeJS.ProcessEnv): 'json' | 'pretty' {
  return loadLoggingConfig(source).format;
}

// Called first in an app's main.ts: with LOG_FORMAT=json every Nest logger of the process, the
// boot-time configuration errors included, writes JSON. Returns the logger for NestFactory, or
// undefined for Nest's own.
export function installAppLogger(service: string, config: LoggingConfig): LoggerService | undefined {
  if (config.format !== 'json') return undefined;
  const logger = new JsonLogger(service, config.level);
  Logger.overrideLogger(logger);
  return logger;
}
