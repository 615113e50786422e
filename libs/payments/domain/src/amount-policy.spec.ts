import { AmountPolicyInput, decideAmount } from './amount-policy';

const base: AmountPolicyInput = {
  policy: 'FLEXIBLE',
  tolerancePercent: '5',
  orderAmount: '200.00',
  received: '200.00',
  minAmount: '10',
  maxAmount: '15000',
};
const decide = (over: Partial<AmountPolicyInput>) => decideAmount({ ...base, ...over });

describe('decideAmount', () => {
  it('FLEXIBLE pays what arrived, up to the tolerance, to the cent', () => {
    expect(decide({ received: '200' })).toEqual({ pays: true, payedAmount: '200.00' });
    expect(decide({ received: '205.00' })).toEqual({ pays: true, payedAmount: '205.00' });
    expect(decide({ received: '210.00' })).toEqual({ pays: true, payedAmount: '210.00' });
    expect(decide({ received: '210.01' })).toEqual({ pays: false, reason: 'AMOUNT_ABOVE_TOLERANCE' });
    expect(decide({ received: '150.00' })).toEqual({ pays: true, payedAmount: '150.00' });
  });

  it('FLEXIBLE refuses what lies below the minimum order amount', () => {
    expect(decide({ received: '10.00' })).toEqual({ pays: true, payedAmount: '10.00' });
    expect(decide({ received: '9.99' })).toEqual({ pays: false, reason: 'AMOUNT_BELOW_MINIMUM' });
    expect(decide({ received: '0.01', orderAmount: '100.00' })).toEqual({
      pays: false,
      reason: 'AMOUNT_BELOW_MINIMUM',
    });
  });

  it('takes decimal tolerances exactly and zero tolerance as no overpayment', () => {
    expect(decide({ tolerancePercent: '2.5', received: '205.00' })).toEqual({
      pays: true,
      payedAmount: '205.00',
    });
    expect(decide({ tolerancePercent: '2.5', received: '205.01' })).toMatchObject({ pays: false });
    expect(decide({ tolerancePercent: '0', received: '200.01' })).toMatchObject({ pays: false });
  });

  it('EXACT pays the order amount only', () => {
    expect(decide({ policy: 'EXACT', received: '200.0' })).toEqual({ pays: true, payedAmount: '200.00' });
    expect(decide({ policy: 'EXACT', received: '199.99' })).toEqual({
      pays: false,
      reason: 'AMOUNT_NOT_EXACT',
    });
    expect(decide({ policy: 'EXACT', received: '200.01' })).toEqual({
      pays: false,
      reason: 'AMOUNT_NOT_EXACT',
    });
  });

  it('never pays above the maximum, whatever the policy or tolerance', () => {
    expect(decide({ orderAmount: '1.00', received: '250000.00' })).toEqual({
      pays: false,
      reason: 'AMOUNT_ABOVE_MAXIMUM',
    });
    expect(decide({ orderAmount: '15000', received: '15000.01', tolerancePercent: '50' })).toEqual({
      pays: false,
      reason: 'AMOUNT_ABOVE_MAXIMUM',
    });
    expect(decide({ policy: 'EXACT', orderAmount: '15000.01', received: '15000.01' })).toEqual({
      pays: false,
      reason: 'AMOUNT_ABOVE_MAXIMUM',
    });
  });
});
