import { EntityManager } from 'typeorm';

import { parseEnvelope, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { DeliveryDispatcher, HandOff } from '../dispatch/delivery-dispatcher';
import { OrderOutcomeEvent } from './order-webhook-body.presenter';
import { PayerDataCipher } from './payer-data.cipher';
import { RecordDeliveryUseCase } from './record-delivery.usecase';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const ORDER = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const MERCHANT = '11111111-2222-4333-8444-555555555555';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const completed = parseEnvelope(
  JSON.stringify({
    id: 'e1',
    type: Topics.OrderCompleted,
    version: 2,
    occurredAt: '2025-03-01T12:00:00.123Z',
    merchantId: MERCHANT,
    data: {
      orderUuid: ORDER,
      kycUserUuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
      amount: '100.10',
      currency: 'EUR',
      reference: 'RF18539007547034',
      recipientAddress: ADDRESS,
      payedAmount: '100.10',
      payerAccountHolderName: 'sealed name',
      fxRateBase: '1.0800',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: '2025-03-01T11:59:00+00:00',
      sentTokenAmount: '107.02692',
      sentTokenCurrency: 'USDC',
      transactionHash: `0x${'ab'.repeat(32)}`,
      message: `Payment of 100.10 EUR received; 107.02692 USDC sent to ${ADDRESS}`,
      completedAt: '2025-03-01T12:00:00.123Z',
    },
  }),
) as OrderOutcomeEvent;

// The use case's hand-off bookkeeping, with its collaborators recorded (Postgres is exercised by the
// webhook-dispatch integration specs): what the dispatcher is told once the transaction ended.
function setUp(payerName: (value: string) => string) {
  const reservation: HandOff = { leaseMs: 30_000, leaseEndsAt: Date.now() + 30_000 };
  const settled: unknown[][] = [];
  const afterCommit: Array<(committed: boolean) => void> = [];
  const sealed: string[] = [];
  const claim = { id: 'd1', body: 'v1.sealed' } as ClaimedDelivery;
  const dispatcher = {
    reserveHandOff: () => reservation,
    settleHandOff: (...args: unknown[]) => void settled.push(args),
  } as unknown as DeliveryDispatcher;
  const consumer = {
    afterTransaction: (_: EntityManager, hook: (committed: boolean) => void) => void afterCommit.push(hook),
  } as unknown as EventConsumer;
  const payerData = {
    payerName: (_: string, value: string) => payerName(value),
    sealBody: (_: string, body: string) => {
      sealed.push(body);
      return 'v1.sealed';
    },
  } as unknown as PayerDataCipher;
  const deliveries = {
    insertManyOnce: async () => [claim],
  } as unknown as WebhookDeliveriesRepository;
  const manager = { query: async () => [] } as unknown as EntityManager;
  const useCase = new RecordDeliveryUseCase(deliveries, payerData, dispatcher, consumer);
  const end = (committed: boolean) => afterCommit.forEach((hook) => hook(committed));
  return { useCase, manager, reservation, settled, sealed, claim, end };
}

describe('RecordDeliveryUseCase hand-off', () => {
  it('hands the committed claim over with the body it sealed', async () => {
    const t = setUp(() => 'Jane Doe');
    await t.useCase.execute(t.manager, completed);
    t.end(true);
    expect(t.sealed).toHaveLength(1);
    expect(JSON.parse(t.sealed[0]!)).toMatchObject({ payerAccountHolderName: 'Jane Doe' });
    expect(t.settled).toEqual([[MERCHANT, t.reservation, t.claim, true, t.sealed[0]]]);
  });

  it('gives the reservation back when presenting the body fails', async () => {
    const t = setUp(() => {
      throw new Error('sealed value was not produced with a key of this ring');
    });
    await expect(t.useCase.execute(t.manager, completed)).rejects.toThrow('key of this ring');
    t.end(false);
    expect(t.settled).toEqual([[MERCHANT, t.reservation, undefined, false, undefined]]);
  });
});
