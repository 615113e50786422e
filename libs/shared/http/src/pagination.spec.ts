import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { MerchantFilteredPageQuery, PaginationQuery, setPaginationHeaders } from './pagination';

describe('pagination', () => {
  const parse = (q: Record<string, string | undefined>) => {
    const v = plainToInstance(PaginationQuery, q);
    return { value: v, errors: validateSync(v) };
  };

  it('defaults to limit 50 offset 0 and rejects limit above 50, 0, negatives and junk', () => {
    expect(parse({}).value).toMatchObject({ limit: 50, offset: 0 });
    expect(parse({ limit: '10', offset: '20' }).value).toMatchObject({ limit: 10, offset: 20 });
    const junk = [{ limit: '51' }, { limit: '0' }, { offset: '-1' }, { limit: 'abc' }, { limit: '1.5' }];
    const huge = [{ offset: '9223372036854775808' }, { offset: '2147483648' }, { offset: '1e400' }];
    const loose = [{ limit: '1e1' }, { limit: '0x10' }, { offset: ' 7' }, { limit: ['1', '2'] as never }];
    expect(parse({ offset: '2147483647' }).errors).toEqual([]);
    for (const q of [...junk, ...huge, ...loose]) {
      expect(parse(q).errors.length).toBeGreaterThan(0);
    }
  });

  it('sets X-Total-Count and RFC 8288 links', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (k: string, v: string) => ((headers[k] = v), reply) };
    setPaginationHeaders({ url: '/kyc/get-all?limit=2&offset=2' } as never, reply as never, {
      total: 5,
      limit: 2,
      offset: 2,
    });
    expect(headers['X-Total-Count']).toBe('5');
    expect(headers.Link).toContain('</kyc/get-all?limit=2&offset=0>; rel="prev"');
    expect(headers.Link).toContain('</kyc/get-all?limit=2&offset=4>; rel="next"');
    expect(headers.Link).toContain('</kyc/get-all?limit=2&offset=4>; rel="last"');
  });

  it('keeps filter parameters in the links', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (k: string, v: string) => ((headers[k] = v), reply) };
    setPaginationHeaders({ url: '/admin/orders?status=FAILED&offset=0&limit=1' } as never, reply as never, {
      total: 2,
      limit: 1,
      offset: 0,
    });
    expect(headers.Link).toContain('</admin/orders?status=FAILED&limit=1&offset=1>; rel="next"');
  });

  it('filters an operator list by merchant only with a UUID, and still checks the page', () => {
    const parse = (q: Record<string, string>) => validateSync(plainToInstance(MerchantFilteredPageQuery, q));
    expect(parse({})).toEqual([]);
    expect(parse({ merchantId: '0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f', limit: '5' })).toEqual([]);
    expect(parse({ merchantId: 'acme' })[0]?.constraints).toEqual({ isUuid: 'merchantId must be a UUID' });
    expect(parse({ limit: '51' })).toHaveLength(1);
  });
});
