import { createHash, timingSafeEqual } from 'node:crypto';

import { isOperatorScope, Operator, OPERATOR_ID_PATTERN, OPERATOR_SCOPES } from '@onramp/auth';

// Named operators from OPERATOR_KEYS: `id:scope+scope:sha256hex,...`. Only the SHA-256 of each key is
// configured (the keys are 32 random bytes: a fast hash is enough, nothing to brute-force), so the
// gateway's Secret holds no usable credential. `onramp operators new <id> <scopes>` prints a key and
// its entry.
export interface OperatorEntry extends Operator {
  keyHash: Buffer;
}

export const hashOperatorKey = (key: string): Buffer => createHash('sha256').update(key).digest();

export function parseOperatorKeys(value: string): OperatorEntry[] {
  const entries: OperatorEntry[] = [];
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [id, scopes, hash, extra] = raw.split(':');
    if (extra !== undefined || !id || !scopes || !hash)
      throw new Error(`"${id ?? ''}:..." is not id:scopes:sha256hex`);
    if (!OPERATOR_ID_PATTERN.test(id) || id === BOOTSTRAP_OPERATOR_ID)
      throw new Error(`operator id "${id}" must match ${String(OPERATOR_ID_PATTERN)} and not be "admin"`);
    const list = scopes.split('+');
    const unknown = list.filter((s) => !isOperatorScope(s));
    if (unknown.length > 0)
      throw new Error(
        `operator ${id}: unknown scope ${unknown.join(', ')} (known: ${OPERATOR_SCOPES.join(', ')})`,
      );
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`operator ${id}: the key hash must be 64 hex digits`);
    if (entries.some((e) => e.id === id)) throw new Error(`operator ${id} is listed twice`);
    entries.push({ id, scopes: list.filter(isOperatorScope), keyHash: Buffer.from(hash, 'hex') });
  }
  return entries;
}

// The bootstrap ADMIN_API_KEY is the operator `admin` with every scope: always in sandbox, and in
// production only while no named operator is configured (it exists to get the first one going).
export const BOOTSTRAP_OPERATOR_ID = 'admin';

export class OperatorDirectory {
  private readonly bootstrapHash?: Buffer;

  constructor(
    private readonly operators: OperatorEntry[],
    bootstrapKey: string | undefined,
  ) {
    if (bootstrapKey) this.bootstrapHash = hashOperatorKey(bootstrapKey);
  }

  get enabled(): boolean {
    return this.operators.length > 0 || this.bootstrapHash !== undefined;
  }

  // Every entry is compared (constant time each), so timing says nothing about which key matched.
  authenticate(key: string | undefined): Operator | undefined {
    if (key === undefined) return undefined;
    const presented = hashOperatorKey(key);
    let found: Operator | undefined;
    for (const entry of this.operators) {
      if (timingSafeEqual(entry.keyHash, presented)) found = { id: entry.id, scopes: [...entry.scopes] };
    }
    if (this.bootstrapHash && timingSafeEqual(this.bootstrapHash, presented) && !found)
      found = { id: BOOTSTRAP_OPERATOR_ID, scopes: [...OPERATOR_SCOPES] };
    return found;
  }
}
