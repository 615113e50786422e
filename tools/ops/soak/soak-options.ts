import { parseArgs } from 'node:util';

import { ConfigError } from '@onramp/config';
import { AppName, APPS } from '@onramp/platform-runner';

export interface SoakOptions {
  orders: number;
  killEveryMs: number; // 0: no kills (a baseline run)
  downMs: number; // how long a killed app stays down before it is started again
  concurrency: number; // orders in flight at once
  seed: number;
  merchants: number;
  rejectRatio: number; // share of sandbox credits booked as REJECTED (the failure path)
  victims: AppName[];
  portOffset: number;
  settleTimeoutMs: number; // how long the platform may take to quiesce once the killer stops
  orderTimeoutMs: number; // how long an order may hold its slot waiting for its webhook
}

// auth is spared: every service checks tokens against its keys, and the soak is about money.
const DEFAULT_VICTIMS: AppName[] = APPS.filter((a) => a !== 'auth');

export const SOAK_USAGE = `npm run soak -- [--orders 1000] [--kill-every-ms 5000] [--down-ms 1000] [--concurrency 20]
  [--seed 1] [--merchants 5] [--reject-ratio 0.05] [--victims ${DEFAULT_VICTIMS.join(',')}]
  [--port-offset 8000] [--settle-timeout-ms 600000] [--order-timeout-ms 300000]`;

export function parseSoakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      orders: { type: 'string', default: '1000' },
      'kill-every-ms': { type: 'string', default: '5000' },
      'down-ms': { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      merchants: { type: 'string', default: '5' },
      'reject-ratio': { type: 'string', default: '0.05' },
      victims: { type: 'string', default: DEFAULT_VICTIMS.join(',') },
      'port-offset': { type: 'string', default: '8000' },
      'settle-timeout-ms': { type: 'string', default: '600000' },
      'order-timeout-ms': { type: 'string', default: '300000' },
    },
  });
  const victims = values.victims.split(',').filter((v) => v.length > 0);
  const unknown = victims.filter((v) => !(APPS as readonly string[]).includes(v));
  if (unknown.length > 0) throw new ConfigError(`--victims: unknown app(s) ${unknown.join(', ')}`);
  const ratio = Number(values['reject-ratio']);
  if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError('--reject-ratio must be between 0 and 1');
  return {
    orders: whole('--orders', values.orders, 1),
    killEveryMs: whole('--kill-every-ms', values['kill-every-ms'], 0),
    downMs: whole('--down-ms', values['down-ms'], 0),
    concurrency: whole('--concurrency', values.concurrency, 1),
    seed: whole('--seed', values.seed, 0),
    merchants: whole('--merchants', values.merchants, 1),
    rejectRatio: ratio,
    victims: victims as AppName[],
    portOffset: whole('--port-offset', values['port-offset'], 0),
    settleTimeoutMs: whole('--settle-timeout-ms', values['settle-timeout-ms'], 1000),
    orderTimeoutMs: whole('--order-timeout-ms', values['order-timeout-ms'], 1000),
  };
}

function whole(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${flag} must be a whole number >= ${min}`);
  return n;
}
