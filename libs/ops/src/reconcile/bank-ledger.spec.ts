import { BankCredit, compareBankLedger } from './bank-ledger';

const credit = (over: Partial<BankCredit>): BankCredit => ({
  id: 'c',
  amount: '10.00',
  matchStatus: 'UNMATCHED',
  orderUuid: null,
  suspenseReason: null,
  returnStatus: null,
  reversed: false,
  ...over,
});

describe('compareBankLedger', () => {
  it('accounts for every euro received: paid, in suspense, returning, returned or waiting', () => {
    const result = compareBankLedger(
      [{ uuid: 'o1', status: 'COMPLETED' }],
      [
        credit({ id: 'a', amount: '100.00', matchStatus: 'MATCHED', orderUuid: 'o1' }),
        credit({ id: 'b', amount: '0.10', suspenseReason: 'UNKNOWN_REFERENCE' }),
        credit({
          id: 'c',
          amount: '250000.00',
          suspenseReason: 'AMOUNT_ABOVE_MAXIMUM',
          returnStatus: 'RETURN_PENDING',
        }),
        credit({
          id: 'd',
          amount: '19.01',
          matchStatus: 'DUPLICATE',
          suspenseReason: 'DUPLICATE',
          returnStatus: 'RETURNED',
        }),
        credit({ id: 'e', amount: '5.00' }),
      ],
    );
    expect(result.mismatches).toEqual([]);
    expect(result.figures).toEqual({
      credits: 5,
      received: '250124.11',
      paid: '100.00',
      inSuspense: '0.10',
      returning: '250000.00',
      returned: '19.01',
      reversed: '0.00',
      waiting: '5.00',
    });
  });

  it('reports an order paid twice, a credit paying an unknown order, and a paid credit also returned', () => {
    const { mismatches } = compareBankLedger(
      [{ uuid: 'o1', status: 'COMPLETED' }],
      [
        credit({ id: 'a', matchStatus: 'MATCHED', orderUuid: 'o1' }),
        credit({ id: 'b', matchStatus: 'MATCHED', orderUuid: 'o1', returnStatus: 'RETURNED' }),
        credit({ id: 'c', matchStatus: 'MATCHED', orderUuid: 'o-missing' }),
      ],
    );
    expect(mismatches.map((m) => m.kind).sort()).toEqual([
      'credit-for-unknown-order',
      'credit-paid-and-returned',
      'order-paid-twice',
    ]);
  });

  it('counts a credit the bank took back as reversed, and one that had paid an order as a mismatch', () => {
    const result = compareBankLedger(
      [{ uuid: 'o1', status: 'COMPLETED' }],
      [
        credit({ id: 'a', amount: '20.00', suspenseReason: 'UNKNOWN_REFERENCE', reversed: true }),
        credit({ id: 'b', amount: '30.00', matchStatus: 'MATCHED', orderUuid: 'o1', reversed: true }),
      ],
    );
    expect(result.figures).toMatchObject({
      received: '50.00',
      reversed: '20.00',
      paid: '30.00',
      inSuspense: '0.00',
    });
    expect(result.mismatches).toEqual([
      expect.objectContaining({ kind: 'credit-reversed-after-paying', orderUuid: 'o1' }),
    ]);
  });

  it('counts a paid credit whose payout was stopped (its order FAILED) as reversed, not a mismatch', () => {
    const result = compareBankLedger(
      [
        { uuid: 'o1', status: 'FAILED' },
        { uuid: 'o2', status: 'CREATED' },
      ],
      [
        credit({ id: 'a', amount: '30.00', matchStatus: 'MATCHED', orderUuid: 'o1', reversed: true }),
        // reversed a moment ago: settlement has not answered yet, flagged until the order fails
        credit({ id: 'b', amount: '5.00', matchStatus: 'MATCHED', orderUuid: 'o2', reversed: true }),
      ],
    );
    expect(result.figures).toMatchObject({ received: '35.00', reversed: '30.00', paid: '5.00' });
    expect(result.mismatches).toEqual([
      expect.objectContaining({ kind: 'credit-reversed-after-paying', orderUuid: 'o2' }),
    ]);
  });
});
