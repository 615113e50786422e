import { randomBytes } from 'node:crypto';

import { getBytes, keccak256, SigningKey, Transaction, Wallet } from 'ethers';

import { Eip1559Fields, signEip1559 } from './eip1559-transfer';
import { encodeRlp } from './rlp';
import { Secp256k1Key } from './secp256k1-key';

const randomBig = (maxBytes: number): bigint => {
  const n = Math.floor(Math.random() * (maxBytes + 1)); // 0 bytes: zero
  return n === 0 ? 0n : BigInt(`0x${randomBytes(n).toString('hex')}`);
};
const randomHex = (bytes: number): string => `0x${randomBytes(bytes).toString('hex')}`;

function randomFields(): Eip1559Fields {
  const maxPriorityFeePerGas = randomBig(12);
  return {
    chainId: [1n, 42161n, 421614n, 31337n][Math.floor(Math.random() * 4)] as bigint,
    nonce: randomBig(6), // ethers keeps nonces to safe integers
    maxPriorityFeePerGas,
    maxFeePerGas: maxPriorityFeePerGas + randomBig(16),
    gasLimit: randomBig(8),
    to: randomHex(20),
    value: randomBig(32),
    // empty, short (one byte below 0x80 is its own encoding), the 68 bytes of a transfer, and longer
    data: randomHex([0, 1, 40, 68, 300][Math.floor(Math.random() * 5)] as number),
  };
}

const ethersSigned = (wallet: Pick<Wallet, 'signTransaction'>, f: Eip1559Fields): Promise<string> =>
  wallet.signTransaction({ type: 2, ...f, nonce: Number(f.nonce), accessList: [] });

describe('signEip1559', () => {
  it("gives byte for byte the transaction and hash of ethers' Wallet.signTransaction", async () => {
    for (let i = 0; i < 200; i++) {
      const wallet = Wallet.createRandom();
      const fields = randomFields();
      const ours = signEip1559(new Secp256k1Key(wallet.privateKey), fields);
      const theirs = await ethersSigned(wallet, fields);
      expect(ours.rawTx).toBe(theirs);
      expect(ours.txHash).toBe(Transaction.from(theirs).hash);
      expect(Transaction.from(ours.rawTx).from).toBe(wallet.address);
    }
  });

  it('writes r and s without their leading zero bytes, as RLP integers must be', async () => {
    const wallet = Wallet.createRandom();
    const key = new Secp256k1Key(wallet.privateKey);
    const seen = { r: false, s: false };
    // about one signature in 128 has an r or an s below 2^248
    for (let nonce = 0n; nonce < 5000n && !(seen.r && seen.s); nonce++) {
      const fields = { ...randomFields(), nonce };
      const ours = signEip1559(key, fields);
      const sig = Transaction.from(ours.rawTx).signature;
      const r = sig?.r.startsWith('0x00') ?? false;
      const s = sig?.s.startsWith('0x00') ?? false;
      if (!r && !s) continue;
      seen.r ||= r;
      seen.s ||= s;
      expect(ours.rawTx).toBe(await ethersSigned(wallet, fields));
    }
    expect(seen).toEqual({ r: true, s: true });
  });

  it('refuses a priority fee above the maximum fee, as ethers and the nodes do', () => {
    const key = new Secp256k1Key(Wallet.createRandom().privateKey);
    const fields = { ...randomFields(), maxPriorityFeePerGas: 2n, maxFeePerGas: 1n };
    expect(() => signEip1559(key, fields)).toThrow(/priority fee/);
  });
});

describe('Secp256k1Key', () => {
  it('signs a digest as ethers does (r, s, parity), for many keys and digests', () => {
    for (let i = 0; i < 100; i++) {
      const privateKey = Wallet.createRandom().privateKey;
      const digest = randomBytes(32);
      const ours = new Secp256k1Key(privateKey).sign(digest);
      const theirs = new SigningKey(privateKey).sign(digest);
      expect([Buffer.from(ours.r), Buffer.from(ours.s), ours.yParity]).toEqual([
        Buffer.from(getBytes(theirs.r)),
        Buffer.from(getBytes(theirs.s)),
        theirs.yParity,
      ]);
    }
  });

  it('refuses a key that is not 32 bytes of hex', () => {
    expect(() => new Secp256k1Key('0x1234')).toThrow(/32 bytes/);
    expect(() => new Secp256k1Key('not a key')).toThrow(/not hex/);
  });
});

describe('encodeRlp', () => {
  it('encodes the examples of the Ethereum yellow paper and the wiki', () => {
    const hex = (b: Buffer) => b.toString('hex');
    const str = (s: string) => Buffer.from(s);
    expect(hex(encodeRlp(str('dog')))).toBe('83646f67');
    expect(hex(encodeRlp([str('cat'), str('dog')]))).toBe('c88363617483646f67');
    expect(hex(encodeRlp(Buffer.alloc(0)))).toBe('80');
    expect(hex(encodeRlp([]))).toBe('c0');
    expect(hex(encodeRlp(Buffer.from([0x0f])))).toBe('0f');
    expect(hex(encodeRlp(Buffer.from([0x04, 0x00])))).toBe('820400');
    const lorem = str('Lorem ipsum dolor sit amet, consectetur adipisicing elit');
    expect(hex(encodeRlp(lorem))).toBe(`b838${lorem.toString('hex')}`);
    expect(keccak256(encodeRlp([[], [[]], [[], [[]]]]))).toBe(keccak256('0xc7c0c1c0c3c0c1c0'));
  });
});
