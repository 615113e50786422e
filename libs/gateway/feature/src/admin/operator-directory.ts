import { createHash, timingSafeEqual } from 'node:crypto';

import { isOperatorScope, Operator, OPERATOR_ID_PATTERN, OPERATOR_SCOPES, OperatorScope } from '@onramp/auth';

import type { LiveOperators } from './live-operators';

// Operators come from auth (rows created with `onramp operators new`, see live-operators.ts) and,
// for deployments that configured them before, from OPERATOR_KEYS: `id:scope+scope:sha256hex,...`.
// Only the SHA-256 of each key is known (the keys are 32 random bytes: a fast hash is enough,
// nothing to brute-force), so neither auth's table nor the gateway's Secret holds a usable credential.
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

// The bootstrap ADMIN_API_KEY is the operator `admin`. In sandbox: every scope, always. In production
// it only serves to create the first operator: scopes `read` and `operators`, and only while no
// operator exists (none in OPERATOR_KEYS and none live in auth, as last fetched).
export const BOOTSTRAP_OPERATOR_ID = 'admin';
export const PRODUCTION_BOOTSTRAP_SCOPES: OperatorScope[] = ['read', 'operators'];

// `unavailable`: the key is none of the configured ones and auth's list is not known, so it may be
// a live operator's: a 503, not a 401 that would make a valid key look wrong.
export type Authentication = Operator | 'unavailable' | undefined;

export interface OperatorDirectoryOptions {
  production: boolean;
  live?: Pick<LiveOperators, 'current'>; // operators kept as rows by auth
}

export class OperatorDirectory {
  private readonly bootstrapHash?: Buffer;
  private readonly staticIds: Set<string>;

  constructor(
    private readonly operators: OperatorEntry[],
    bootstrapKey: string | undefined,
    private readonly options: OperatorDirectoryOptions = { production: false },
  ) {
    if (bootstrapKey) this.bootstrapHash = hashOperatorKey(bootstrapKey);
    this.staticIds = new Set(operators.map((o) => o.id));
  }

  get enabled(): boolean {
    return this.operators.length > 0 || this.bootstrapHash !== undefined || this.options.live !== undefined;
  }

  // Every entry is compared (constant time each), so timing says nothing about which key matched.
  // Configured keys answer without asking auth, so the admin API keeps working for them while
  // auth is down.
  async authenticate(key: string | undefined): Promise<Authentication> {
    if (key === undefined) return undefined;
    const presented = hashOperatorKey(key);
    const configured = matching(this.operators, presented);
    if (configured) return configured;
    const isBootstrap = this.bootstrapHash !== undefined && timingSafeEqual(this.bootstrapHash, presented);
    if (isBootstrap && !this.options.production)
      return { id: BOOTSTRAP_OPERATOR_ID, scopes: [...OPERATOR_SCOPES] };
    // Named operators exist: the bootstrap key is done, whatever auth would say.
    if (!this.options.live || (isBootstrap && this.operators.length > 0)) return undefined;
    const live = await this.options.live.current();
    if (live === undefined) return 'unavailable';
    // An id from OPERATOR_KEYS is never also taken from auth: one id, one key.
    const fromAuth = matching(
      live.filter((o) => !this.staticIds.has(o.id)),
      presented,
    );
    if (fromAuth) return fromAuth;
    if (isBootstrap && this.operators.length === 0 && live.length === 0)
      return { id: BOOTSTRAP_OPERATOR_ID, scopes: [...PRODUCTION_BOOTSTRAP_SCOPES] };
    return undefined;
  }
}

function matching(entries: OperatorEntry[], presented: Buffer): Operator | undefined {
  let found: Operator | undefined;
  for (const entry of entries) {
    if (timingSafeEqual(entry.keyHash, presented)) found = { id: entry.id, scopes: [...entry.scopes] };
  }
  return found;
}
