import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { chaosEnv } from './chaos-env';

const SIGNED = /order ([0-9a-f-]{36}): signed /g;

// The orders a chain-settlement process signed, from its own log ("order <uuid>: signed ... (nonce n)",
// written in the signing transaction): instance undefined is the platform's process, "2" the second one.
export function signedInLog(instance?: string): Set<string> {
  const file = join(chaosEnv.logDir(), `chain-settlement${instance ? `-${instance}` : ''}.log`);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Set();
  }
  return new Set([...text.matchAll(SIGNED)].map((m) => m[1]));
}

// One sample of chain-settlement's /metrics (Prometheus text), e.g. settlement_held_underfunded.
export async function settlementMetric(name: string, labels = ''): Promise<number | undefined> {
  const text = await (await fetch(`${chaosEnv.settlementUrl()}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
