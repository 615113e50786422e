import { ConfigError } from '@onramp/config';

import { isDevelopmentKey } from './development-keys';
import { parseKey } from './field-cipher';

export interface KeyRingSource {
  name: string; // the variable of the sealing key, e.g. PAYER_DATA_ENCRYPTION_KEY
  previousName: string; // the variable of the older keys, comma-separated
  current: string | undefined;
  previous: string | undefined;
  production: boolean;
  developmentKey: string; // what sandbox seals with when the variable is unset
}

// A service's key ring from its two variables: the sealing key first, then the older keys that still
// open what they sealed until a rekey has re-sealed it. Production needs the key and refuses every
// published development key, in the ring's old keys too (a value sealed under a public key is not
// sealed). Throws a ConfigError naming the variable, as the service's own config checks do.
export function keyRingFrom(src: KeyRingSource): string[] {
  const current = src.current?.trim() || (src.production ? '' : src.developmentKey);
  if (!current) throw new ConfigError(`invalid configuration: ${src.name} is required in production mode`);
  const previous = (src.previous ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const ring = [current, ...previous];
  ring.forEach((key, i) => {
    const what = i === 0 ? src.name : `${src.previousName} entry ${i}`;
    try {
      parseKey(key);
    } catch {
      throw new ConfigError(`invalid configuration: ${what} must be 32 bytes (64 hex chars or base64)`);
    }
    if (src.production && isDevelopmentKey(key)) {
      throw new ConfigError(
        `invalid configuration: ${what} must not be a public development key in production`,
      );
    }
  });
  return ring;
}

// The older keys of a ring on their own (a service whose sealing key keeps its own checks): each
// 32 bytes, and no published development key in production. Throws naming the variable and entry.
export function previousKeys(name: string, value: string | undefined, production: boolean): string[] {
  const keys = (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  keys.forEach((key, i) => {
    try {
      parseKey(key);
    } catch {
      throw new Error(`${name} entry ${i + 1} must be 32 bytes (64 hex chars or base64)`);
    }
    if (production && isDevelopmentKey(key))
      throw new Error(`${name} entry ${i + 1} must not be a public development key in production`);
  });
  return keys;
}
