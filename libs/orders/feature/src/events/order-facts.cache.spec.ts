import { OrderFacts } from '../orders/order.entity';
import { OrderFactsCache } from './order-facts.cache';

const facts = (uuid: string): OrderFacts => ({
  uuid,
  merchantId: 'm',
  kycUserUuid: 'k',
  amount: '100.10',
  currency: 'EUR',
  reference: `REF-${uuid}`,
  recipientAddress: '0xabc',
});

describe('OrderFactsCache', () => {
  it('hands an order facts out once', () => {
    const cache = new OrderFactsCache();
    cache.remember(facts('a'));
    expect(cache.take('a')).toEqual(facts('a'));
    expect(cache.take('a')).toBeUndefined();
  });

  it('evicts the oldest entry beyond its capacity, counting a remembered one again as new', () => {
    const cache = new OrderFactsCache(2);
    cache.remember(facts('a'));
    cache.remember(facts('b'));
    cache.remember(facts('a'));
    cache.remember(facts('c'));
    expect(cache.take('b')).toBeUndefined();
    expect(cache.take('a')).toEqual(facts('a'));
    expect(cache.take('c')).toEqual(facts('c'));
  });
});
