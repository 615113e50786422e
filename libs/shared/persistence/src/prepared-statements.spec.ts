import { StatementNames } from './prepared-statements';

describe('StatementNames', () => {
  it('names a statement with parameters once, and gives the same name every time after', () => {
    const names = new StatementNames();
    const a = names.nameFor('SELECT $1::int', [1]);
    expect(a).toBeDefined();
    expect(names.nameFor('SELECT $1::int', [2])).toBe(a);
    expect(names.nameFor('SELECT $1::text', ['x'])).not.toBe(a);
  });

  it('leaves a statement without parameters unnamed (it goes out as a simple query)', () => {
    const names = new StatementNames();
    expect(names.nameFor('COMMIT', [])).toBeUndefined();
    expect(names.nameFor('COMMIT', undefined)).toBeUndefined();
  });

  it('names no new text past its limit, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const a = names.nameFor('SELECT $1', [1]);
    const b = names.nameFor('SELECT $1, 2', [1]);
    expect(names.nameFor('SELECT $1, 3', [1])).toBeUndefined();
    expect([names.nameFor('SELECT $1', [1]), names.nameFor('SELECT $1, 2', [1])]).toEqual([a, b]);
  });
});

describe('StatementNames after a failure', () => {
  const stalePlan = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });

  it('forgets a statement whose plan the server will not run again, and names it afresh', () => {
    const names = new StatementNames();
    const text = 'SELECT t.* FROM t WHERE id = $1';
    const before = names.nameFor(text, [1]);
    names.failed(text, Object.assign(new Error('duplicate key'), { code: '23505' }));
    expect(names.nameFor(text, [1])).toBe(before);
    names.failed(text, stalePlan);
    const after = names.nameFor(text, [1]);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});
