import { Row, targetMet } from './bench-context';
import { formatTable, formatTargets } from './bench-table';

const row = (over: Partial<Row>): Row => ({ probe: 'P9', metric: 'm', unit: '/s', value: 1, ...over });

describe('bench targets', () => {
  it('judges a ratio against its floor or ceiling', () => {
    expect(targetMet(row({ value: 50, baseline: 100, target: { ratioAtLeast: 0.5 } }))).toBe(true);
    expect(targetMet(row({ value: 49, baseline: 100, target: { ratioAtLeast: 0.5 } }))).toBe(false);
    expect(targetMet(row({ value: 30, baseline: 10, target: { ratioAtMost: 3 } }))).toBe(true);
    expect(targetMet(row({ value: 31, baseline: 10, target: { ratioAtMost: 3 } }))).toBe(false);
  });

  it('judges a latency by how far it is over its baseline, and a value by itself', () => {
    expect(
      targetMet(row({ unit: 'ms', value: 139, baseline: 39, target: { overBaselineAtMost: 100 } })),
    ).toBe(true);
    expect(
      targetMet(row({ unit: 'ms', value: 140, baseline: 39, target: { overBaselineAtMost: 100 } })),
    ).toBe(false);
    expect(targetMet(row({ unit: 's', value: 3.2, target: { atMost: 5 } }))).toBe(true);
    expect(targetMet(row({ unit: 's', value: 5.1, target: { atMost: 5 } }))).toBe(false);
  });

  it('judges nothing without a target or without the figures it needs', () => {
    expect(targetMet(row({ value: 10, baseline: 1 }))).toBeUndefined();
    expect(targetMet(row({ value: 10, target: { ratioAtLeast: 0.5 } }))).toBeUndefined();
    expect(targetMet(row({ value: NaN, baseline: 1, target: { ratioAtLeast: 0.5 } }))).toBeUndefined();
  });

  it('prints each target with its verdict, and a line counting them', () => {
    const rows = [
      row({
        probe: 'P1',
        metric: 'create order',
        unit: 'req/s',
        value: 800,
        baseline: 3200,
        target: { ratioAtLeast: 0.5 },
      }),
      row({
        probe: 'P2',
        metric: 'p50',
        unit: 'ms',
        value: 80,
        baseline: 40,
        target: { overBaselineAtMost: 100 },
      }),
      row({ probe: 'P6', metric: 'idle RSS', unit: 'MB', value: 290 }),
    ];
    const table = formatTable(rows).split('\n');
    expect(table[0]).toMatch(/\| ratio +\| target +\|/);
    expect(table[2]).toContain('>= x0.5: missed');
    expect(table[3]).toContain('<= baseline + 100 ms: met');
    expect(formatTargets(rows)).toBe('targets met: 1 of 2 (missed: P1 create order)');
    expect(formatTargets([rows[2]!])).toBe('targets: none judged in this run');
    // a smoke run shows the marks without verdicts
    expect(formatTable(rows, false).split('\n')[2]).toMatch(/\| >= x0\.5 +\|/);
  });
});
