import { Logger } from '@nestjs/common';

import {
  GATEWAY_IDENTITY,
  isOperatorScope,
  OPERATOR_ID_PATTERN,
  SERVICE_CREDENTIAL_HEADER,
  signServiceRequest,
} from '@onramp/auth';

import type { OperatorEntry } from './operator-directory';

// The operators auth keeps as rows (created and revoked through POST /admin/operators), as the
// gateway authenticates them: the SHA-256 of each live key, fetched from auth with the gateway's
// service credential and kept for REFRESH_MS. A revoked key therefore stops working within
// REFRESH_MS of the revocation (plus one fetch). When auth does not answer, the last list serves
// until it is STALE_MS old, then operators from auth are refused (503) rather than trusted on an
// old list: a revocation made just before auth became unreachable must not last for the outage.
export const OPERATOR_LIST_REFRESH_MS = 5_000;
export const OPERATOR_LIST_STALE_MS = 60_000;
const FETCH_TIMEOUT_MS = 2_000;

export type FetchOperatorList = () => Promise<OperatorEntry[]>;

export class LiveOperators {
  private readonly log = new Logger('LiveOperators');
  private list?: { entries: OperatorEntry[]; fetchedAt: number };
  private inflight?: Promise<void>;
  private failing = false;

  constructor(
    private readonly fetchList: FetchOperatorList,
    private readonly timing = { refreshMs: OPERATOR_LIST_REFRESH_MS, staleMs: OPERATOR_LIST_STALE_MS },
    private readonly now: () => number = Date.now,
  ) {}

  // The live operators, or undefined when they are not known (never fetched, or too old).
  async current(): Promise<OperatorEntry[] | undefined> {
    if (!this.list || this.now() - this.list.fetchedAt >= this.timing.refreshMs) await this.refresh();
    if (this.list && this.now() - this.list.fetchedAt < this.timing.staleMs) return this.list.entries;
    return undefined;
  }

  // One fetch at a time: concurrent admin requests wait for the same answer.
  private refresh(): Promise<void> {
    this.inflight ??= this.fetchList()
      .then((entries) => {
        this.list = { entries, fetchedAt: this.now() };
        if (this.failing) this.log.log('operator list from auth is reachable again');
        this.failing = false;
      })
      .catch((err: unknown) => {
        if (!this.failing)
          this.log.warn(
            `operator list from auth unavailable: ${err instanceof Error ? err.message : String(err)}`,
          );
        this.failing = true;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}

export const OPERATOR_KEYS_PATH = '/internal/operator-keys';

// GET {auth}/internal/operator-keys with the gateway's credential; anything malformed is a failure.
export function fetchOperatorKeys(authUrl: string, serviceSecret: string): FetchOperatorList {
  return async () => {
    const res = await fetch(`${authUrl}${OPERATOR_KEYS_PATH}`, {
      headers: {
        [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(
          GATEWAY_IDENTITY,
          serviceSecret,
          'GET',
          OPERATOR_KEYS_PATH,
        ),
      },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`auth answered ${res.status}`);
    return parseOperatorList(await res.json());
  };
}

export function parseOperatorList(body: unknown): OperatorEntry[] {
  const list = (body as { operators?: unknown } | null)?.operators;
  if (!Array.isArray(list)) throw new Error('not an operator list');
  return list.map((raw: unknown) => {
    const { id, scopes, keySha256 } = (raw ?? {}) as Record<string, unknown>;
    if (
      typeof id !== 'string' ||
      !OPERATOR_ID_PATTERN.test(id) ||
      !Array.isArray(scopes) ||
      !scopes.every((s) => typeof s === 'string' && isOperatorScope(s)) ||
      typeof keySha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(keySha256)
    )
      throw new Error('malformed operator entry');
    return { id, scopes: scopes as OperatorEntry['scopes'], keyHash: Buffer.from(keySha256, 'hex') };
  });
}
