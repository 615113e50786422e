import { GatheredWriter, GatheredWrites } from './gathered-writes';

// A writer whose writes are each held until the test lets them finish.
function heldWriter() {
  const calls: Array<{ kind: 'one' | 'many'; items: string[]; finish: (err?: Error) => void }> = [];
  const writer: GatheredWriter<string, string> = {
    one: (item) =>
      new Promise((resolve, reject) =>
        calls.push({
          kind: 'one',
          items: [item],
          finish: (err) => (err ? reject(err) : resolve(`${item}!`)),
        }),
      ),
    many: (items) =>
      new Promise((resolve, reject) =>
        calls.push({
          kind: 'many',
          items: [...items],
          finish: (err) => (err ? reject(err) : resolve(items.map((i) => `${i}!`))),
        }),
      ),
  };
  return { calls, writer };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const shape = (calls: ReturnType<typeof heldWriter>['calls']) => calls.map((c) => [c.kind, c.items]);

describe('GatheredWrites', () => {
  it('gathers what arrives while one write runs into the next, one write at a time by default', async () => {
    const { calls, writer } = heldWriter();
    const writes = new GatheredWrites(writer);
    const answers = ['a', 'b', 'c'].map((i) => writes.write(i));
    expect(shape(calls)).toEqual([['one', ['a']]]);
    calls[0]?.finish();
    await settle();
    expect(shape(calls).slice(1)).toEqual([['many', ['b', 'c']]]);
    calls[1]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!']);
  });

  it('writes an item that finds nothing in flight at once, alone', async () => {
    const { calls, writer } = heldWriter();
    const answer = new GatheredWrites(writer).write('a');
    expect(shape(calls)).toEqual([['one', ['a']]]);
    calls[0]?.finish();
    await expect(answer).resolves.toBe('a!');
  });

  it('puts the items that arrive while two writes run into one', async () => {
    const { calls, writer } = heldWriter();
    const writes = new GatheredWrites(writer, { maxInFlight: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((i) => writes.write(i));
    expect(shape(calls)).toEqual([
      ['one', ['a']],
      ['one', ['b']],
    ]);
    calls[0]?.finish();
    await settle();
    expect(shape(calls).slice(2)).toEqual([['many', ['c', 'd', 'e']]]);
    calls[1]?.finish();
    calls[2]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it('writes each item of a failed shared write again on its own, each with its own outcome', async () => {
    const { calls, writer } = heldWriter();
    const writes = new GatheredWrites(writer, { maxInFlight: 2 });
    const answers = ['a', 'b', 'c', 'd'].map((i) => writes.write(i));
    calls[0]?.finish();
    calls[1]?.finish();
    await settle();
    calls[2]?.finish(new Error('the write as a whole'));
    await settle();
    expect(shape(calls).slice(3)).toEqual([
      ['one', ['c']],
      ['one', ['d']],
    ]);
    calls[3]?.finish();
    calls[4]?.finish(new Error('d alone'));
    await expect(answers[2]).resolves.toBe('c!');
    await expect(answers[3]).rejects.toThrow('d alone');
  });

  it('keeps items that share a key apart, the later one first in line for the next write', async () => {
    const { calls, writer } = heldWriter();
    // an item's keys: its letters
    const writes = new GatheredWrites(writer, { keysOf: (item) => item.split('') });
    const answers = ['a', 'xy', 'yz', 'b', 'z', 'c'].map((i) => writes.write(i));
    expect(shape(calls)).toEqual([['one', ['a']]]);
    calls[0]?.finish();
    await settle();
    expect(shape(calls).slice(1)).toEqual([['many', ['xy', 'b', 'z', 'c']]]);
    calls[1]?.finish();
    await settle();
    expect(shape(calls).slice(2)).toEqual([['one', ['yz']]]);
    calls[2]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'xy!', 'yz!', 'b!', 'z!', 'c!']);
  });

  it('takes at most maxBatch items a write', async () => {
    const { calls, writer } = heldWriter();
    const writes = new GatheredWrites(writer, { maxBatch: 2 });
    const answers = ['a', 'b', 'c', 'd'].map((i) => writes.write(i));
    calls[0]?.finish();
    await settle();
    calls[1]?.finish();
    await settle();
    expect(shape(calls)).toEqual([
      ['one', ['a']],
      ['many', ['b', 'c']],
      ['one', ['d']],
    ]);
    calls[2]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!', 'd!']);
  });
});
