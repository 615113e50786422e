import { diffSnapshots, normaliseSql, StatementCounter, statementText } from './counter';
import { formatWindows, windowReport } from './windows';

describe('normaliseSql', () => {
  it('collapses whitespace, placeholders and literals', () => {
    expect(
      normaliseSql(`SELECT *\n  FROM settlement.settlements\n WHERE id = $12 AND state = 'PENDING' LIMIT 50`),
    ).toBe('SELECT * FROM settlement.settlements WHERE id = $ AND state = ? LIMIT ?');
  });

  it('keeps digits that belong to identifiers and quoted names', () => {
    expect(normaliseSql('SELECT "t1"."col2", v2 FROM x1 WHERE a = 3')).toBe(
      'SELECT "t1"."col2",v2 FROM x1 WHERE a = ?',
    );
  });

  it('makes one statement of any number of VALUES tuples or IN elements', () => {
    const two = normaliseSql('INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)');
    const three = normaliseSql('INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4), ($5, $6)');
    expect(two).toBe(three);
    expect(two).toBe('INSERT INTO t(a,b)VALUES($,$),…');
    expect(normaliseSql('SELECT 1 FROM t WHERE id IN ($1, $2, $3)')).toBe(
      normaliseSql('SELECT 1 FROM t WHERE id IN ($1)'),
    );
  });

  it('drops comments and spells transaction control alike', () => {
    expect(normaliseSql('begin')).toBe('BEGIN');
    expect(normaliseSql('START TRANSACTION ISOLATION LEVEL REPEATABLE READ')).toBe(
      'START TRANSACTION ISOLATION LEVEL REPEATABLE READ',
    );
    expect(normaliseSql('commit')).toBe('COMMIT');
    expect(normaliseSql('SELECT a -- why\nFROM t /* note */')).toBe('SELECT a FROM t');
  });

  it('escaped quotes stay inside one literal', () => {
    expect(normaliseSql(`SELECT 'it''s', $1`)).toBe('SELECT ?,$');
  });
});

describe('statementText', () => {
  it('reads strings, query configs and submittables', () => {
    expect(statementText('SELECT 1')).toBe('SELECT 1');
    expect(statementText({ text: 'SELECT 2', values: [] })).toBe('SELECT 2');
    expect(statementText(undefined)).toBeUndefined();
  });
});

describe('StatementCounter', () => {
  it('counts by pool and normalised text, and a window is the difference of two snapshots', () => {
    let cpu = 1_000;
    const counter = new StatementCounter(() => cpu);
    counter.count('onramp-settlement', 'BEGIN');
    const start = counter.snapshot();
    counter.count('onramp-settlement', 'BEGIN');
    counter.count('onramp-settlement', 'UPDATE s SET state = $1 WHERE id = $2');
    counter.count('onramp-settlement', 'UPDATE s SET state = $3 WHERE id = $4');
    counter.count('onramp-settlement', 'COMMIT');
    counter.count('onramp-orders', 'COMMIT');
    cpu += 8_000;
    const d = diffSnapshots(start, counter.snapshot());
    expect(d.statements).toBe(5);
    expect(d.cpuMs).toBe(8);
    expect(d.byText[0]).toEqual({
      app: 'onramp-settlement',
      text: 'UPDATE s SET state = $ WHERE id = $',
      count: 2,
    });
    expect(d.byText).toContainEqual({ app: 'onramp-orders', text: 'COMMIT', count: 1 });
    expect(d.byText).toContainEqual({ app: 'onramp-settlement', text: 'BEGIN', count: 1 });
  });

  it('reports per operation', () => {
    const counter = new StatementCounter(() => 0);
    const start = counter.snapshot();
    for (let i = 0; i < 6; i++) counter.count('a', 'SELECT 1');
    const r = windowReport(
      { probe: 'P3', label: 'x', operation: 'payout', operations: 3 },
      start,
      counter.snapshot(),
    );
    expect(r.statementsPerOperation).toBe(2);
    expect(r.top[0]).toMatchObject({ text: 'SELECT ?', count: 6, perOperation: 2 });
    expect(r.perPool).toEqual({ a: 2 });
  });
});

describe('formatWindows', () => {
  it('prints each window with its statements per operation', () => {
    const counter = new StatementCounter(() => 0);
    const start = counter.snapshot();
    counter.count('onramp-webhooks', 'begin; SELECT 1');
    const text = formatWindows([
      windowReport(
        { probe: 'P4', label: 'x', operation: 'delivery', operations: 2 },
        start,
        counter.snapshot(),
      ),
    ]);
    expect(text).toContain('P4 x: 2 deliveries, 1 statements (0.50 per delivery)');
    expect(text).toContain('webhooks     BEGIN; SELECT ?');
  });
});
