import { EntityManager } from 'typeorm';

import { EventEnvelope, PaymentConfirmedV1 } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { inSpanFrom, installTracing, inTraceOf, SpanKind } from '@onramp/observability';
import { StaleFxRateError } from '@onramp/settlement-domain';

import { FxQuoteService } from '../fx/fx-quote.service';
import { PaymentConfirmedHandler } from './payment-confirmed.handler';

// The settlement row keeps the trace of the payment.confirmed that created it; the worker, which
// runs outside any event, publishes transfer.* in that trace (SettlementFinalizer), so one order is
// one trace from the API to the webhook.
describe('PaymentConfirmedHandler', () => {
  beforeAll(() =>
    installTracing({
      serviceName: 'chain-settlement-spec',
      config: { exportOtlp: false },
      spanProcessors: [],
    }),
  );

  // A manager that answers the order's payment lock with nothing and keeps the parameters of each
  // settlement insert (whose reversal check finds nothing to stop it), answering with `rows`.
  const recording = (params: unknown[][], rows: unknown[]) =>
    ({
      query: (sql: string, values: unknown[]) => {
        if (!sql.includes('INSERT INTO "settlement"."settlements"')) return Promise.resolve([]);
        params.push(values);
        return Promise.resolve(rows);
      },
    }) as unknown as EntityManager;
  // A rate source whose rate is stale: the settlement is stored unpriced.
  const staleRates = {
    quote: () => Promise.reject(new StaleFxRateError(900, 300)),
  } as unknown as FxQuoteService;
  const confirmed = (orderUuid: string) =>
    ({
      merchantId: '7b0c1f0e-3f5e-4c59-9d9c-8f3b5d7c2a10',
      data: {
        orderUuid,
        bankTransactionId: 'c1d2e3f4-0000-4000-8000-000000000001',
        reference: 'RF18539007547034',
        recipientAddress: '0x00000000000000000000000000000000000000aa',
        payedAmount: '10.00',
        payerAccountHolderName: 'Jane Doe',
      },
    }) as unknown as EventEnvelope<'payment.confirmed', PaymentConfirmedV1>;

  it('stores the trace of the event it handles on the settlement row', async () => {
    const params: unknown[][] = [];
    const manager = recording(params, [{ n: '1', outcome: null, reason: null, inserted: true }]);
    const handler = new PaymentConfirmedHandler({} as EventConsumer, staleRates);
    const event = confirmed('0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f');
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

    await inSpanFrom('payment.confirmed process', SpanKind.CONSUMER, { traceparent: incoming }, {}, () =>
      handler.handle(event, manager),
    );

    const [stored] = params[0][12] as string[]; // traceparent
    expect(stored.split('-')[1]).toBe('4bf92f3577b34da6a3ce929d0e0e4736'); // same trace, the consumer's span
    expect(stored).not.toBe(incoming);
  });

  // A run's statement is sent before any of its events is handled: each settlement takes its own
  // event's trace from the consumer's inEventContext.
  it("stores each event's own trace on the settlements of a run", async () => {
    const params: unknown[][] = [];
    const manager = recording(params, []);
    const handler = new PaymentConfirmedHandler({} as EventConsumer, staleRates);
    const traces = [
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    ];

    await handler.handleRun(
      [confirmed('0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f'), confirmed('1c8e4d2f-6b80-4e2f-8b64-3a7a2d2e3f40')],
      manager,
      (i, work) => inTraceOf({ traceparent: traces[i] }, work),
    );

    expect(params).toHaveLength(1); // one statement for both
    expect(params[0][12]).toEqual(traces);
  });
});
