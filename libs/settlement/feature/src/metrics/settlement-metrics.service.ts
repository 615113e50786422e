import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { formatEther } from 'ethers';
import { DataSource } from 'typeorm';

import { usdcToString } from '@onramp/money';
import { MetricFamily, metrics } from '@onramp/observability';
import { SETTLEMENT_STATES } from '@onramp/settlement-domain';

import { ChainClient } from '../chain/chain.client';
import { RECIPIENT_REFUSED } from '../chain/recipient-screening';
import { countReplacements } from '../settlements/settlement-transaction.repository';
import { countConfirmed, readSettlementGauges } from '../settlements/settlement.repository';
import { SignerLeases } from '../signers/signer-leases';
import { signerStatus } from '../signers/signer-leases.repository';
import { HELD_UNDERFUNDED } from '../worker/sign-pending.step';
import { RecountedTotal } from './recounted-total';

type Metric = MetricFamily;

// What an operator alerts on: orders held by an empty hot wallet, each signer's balances, in-flight
// count, next nonce and lease holder, stuck transactions being replaced, work that is not moving.
// Read from the database and the chain on each scrape (a handful of queries, each reading only the
// rows it counts), so every worker instance reports the same numbers; the CONFIRMED total and the
// replacements, each a read of most of its table, are counted again only now and then once they
// cost 50 ms or more (RecountedTotal).
// A collector of the process's metrics registry: GET /metrics (MetricsController) shows them beside
// the HTTP, messaging and webhook metrics.
@Injectable()
export class SettlementMetrics implements OnModuleInit, OnModuleDestroy {
  private unregister?: () => void;
  // Both read most of their table (every payout ever made): counted again only now and then.
  private readonly confirmed = new RecountedTotal(() => countConfirmed(this.dataSource.manager));
  private readonly replacements = new RecountedTotal(() => countReplacements(this.dataSource.manager));

  constructor(
    private readonly dataSource: DataSource,
    private readonly chain: ChainClient,
    private readonly leases: SignerLeases,
  ) {}

  onModuleInit(): void {
    this.unregister = metrics.addCollector('chain-settlement', () => this.collect());
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  async collect(): Promise<Metric[]> {
    return [...(await this.fromDatabase()), ...(await this.perSigner())];
  }

  private async fromDatabase(): Promise<Metric[]> {
    const [gauges, replacements, confirmed] = await Promise.all([
      readSettlementGauges(this.dataSource.manager, {
        underfunded: HELD_UNDERFUNDED,
        refused: RECIPIENT_REFUSED,
      }),
      this.replacements.read(),
      this.confirmed.read(),
    ]);
    const count = new Map(gauges.byState.map((r) => [r.state, r.n]));
    count.set('CONFIRMED', confirmed);
    return [
      {
        name: 'settlement_settlements',
        help: 'Settlements by state (a CONFIRMED count that took 50 ms or more is reported for 100 times as long).',
        type: 'gauge',
        samples: SETTLEMENT_STATES.map((state) => ({ labels: { state }, value: count.get(state) ?? 0 })),
      },
      {
        name: 'settlement_held_underfunded',
        help: 'PENDING settlements held because the hot wallet cannot pay them (USDC or gas).',
        type: 'gauge',
        samples: [{ value: gauges.underfunded }],
      },
      {
        name: 'settlement_held_over_cap',
        help: 'Settlements HELD unsigned because they are over a payout cap (per transfer or rolling 24 h).',
        type: 'gauge',
        samples: [{ value: count.get('HELD') ?? 0 }],
      },
      {
        name: 'settlement_recipients_refused_total',
        help: 'Settlements failed before signing: recipient USDC-blacklisted or on the sanctioned list.',
        type: 'counter',
        samples: [{ value: gauges.refused }],
      },
      {
        name: 'settlement_transaction_replacements_total',
        help: 'Stuck transactions replaced with the same nonce and higher fees (a count that took 50 ms or more is reported for 100 times as long).',
        type: 'counter',
        samples: [{ value: replacements }],
      },
      {
        name: 'settlement_oldest_open_seconds',
        help: 'Age of the oldest settlement not yet CONFIRMED or FAILED (0 if none).',
        type: 'gauge',
        samples: [{ value: Math.floor(gauges.oldestOpenAgeSeconds ?? 0) }],
      },
    ];
  }

  // Per signer (every one the database knows, and this process's pool): its balances, transfers in
  // flight, next nonce and lease. The balances of all signers in one batched JSON-RPC round trip.
  private async perSigner(): Promise<Metric[]> {
    const signers = await signerStatus(
      this.dataSource,
      this.leases.pool.map((s) => s.address),
    );
    const rpcUp: Metric = {
      name: 'settlement_rpc_up',
      help: 'Whether the RPC node answered this scrape.',
      type: 'gauge',
      samples: [{ value: 1 }],
    };
    const fromDatabase: Metric[] = [
      {
        name: 'settlement_signer_in_flight',
        help: 'Transfers of the signer signed or broadcast and not yet final.',
        type: 'gauge',
        samples: signers.map((s) => ({ labels: { address: s.address }, value: s.inFlight })),
      },
      {
        name: 'settlement_signer_next_nonce',
        help: 'The nonce the signer signs its next transfer with (from its counter in settlement.signers).',
        type: 'gauge',
        samples: signers.flatMap((s) =>
          s.nextNonce === null ? [] : [{ labels: { address: s.address }, value: s.nextNonce }],
        ),
      },
      {
        name: 'settlement_signer_lease',
        help: 'The signer lease and its holder (host/pid/start/tag): 1 while it holds, 0 once expired.',
        type: 'gauge',
        samples: signers.flatMap((s) =>
          s.holder === null
            ? []
            : [{ labels: { address: s.address, holder: s.holder }, value: s.live ? 1 : 0 }],
        ),
      },
    ];
    try {
      const balances = await Promise.all(
        signers.map((s) =>
          Promise.all([this.chain.usdcBalance(s.address), this.chain.ethBalance(s.address)]),
        ),
      );
      return [
        rpcUp,
        ...fromDatabase,
        {
          name: 'settlement_hot_wallet_usdc',
          help: 'USDC held by each hot wallet (signer).',
          type: 'gauge',
          samples: signers.map((s, i) => ({
            labels: { address: s.address },
            value: usdcToString(balances[i]?.[0] ?? 0n),
          })),
        },
        {
          name: 'settlement_hot_wallet_eth',
          help: 'ETH (gas money) held by each hot wallet (signer).',
          type: 'gauge',
          samples: signers.map((s, i) => ({
            labels: { address: s.address },
            value: formatEther(balances[i]?.[1] ?? 0n),
          })),
        },
      ];
    } catch {
      return [{ ...rpcUp, samples: [{ value: 0 }] }, ...fromDatabase];
    }
  }
}
