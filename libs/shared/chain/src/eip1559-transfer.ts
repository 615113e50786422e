import { keccak256 } from 'ethers';

import { encodeRlp, hexBytes, RlpItem, stripLeadingZeros, unsignedBytes } from './rlp';
import { Secp256k1Key } from './secp256k1-key';

// The fields of an EIP-1559 (type 2) transaction without an access list: all a token transfer needs.
export interface Eip1559Fields {
  chainId: bigint;
  nonce: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gasLimit: bigint;
  to: string; // 0x and 40 hex digits
  value: bigint;
  data: string; // 0x-prefixed hex
}

export interface SignedEip1559 {
  rawTx: string;
  txHash: string;
}

const TYPE_2 = Buffer.from([0x02]);
const NO_ACCESS_LIST: RlpItem[] = [];

// A type 2 transaction signed and serialized by hand: ethers' Transaction object (its checks, the
// address checksums, encoding the transaction twice through hex strings) cost about a third of a
// signed transfer's CPU beside the signature (docs/performance-journal.md). The bytes are the same as
// `Wallet.signTransaction`'s for the same fields and key (eip1559-transfer.spec.ts checks it).
export function signEip1559(key: Secp256k1Key, fields: Eip1559Fields): SignedEip1559 {
  // a node refuses such a transaction, and ethers refuses to sign one
  if (fields.maxPriorityFeePerGas > fields.maxFeePerGas)
    throw new RangeError('the priority fee cannot be more than the maximum fee');
  const body = bodyOf(fields);
  const digest = hexBytes(keccak256(typed(body)), 32);
  const { r, s, yParity } = key.sign(digest);
  const raw = typed([...body, unsignedBytes(BigInt(yParity)), stripLeadingZeros(r), stripLeadingZeros(s)]);
  return { rawTx: `0x${raw.toString('hex')}`, txHash: keccak256(raw) };
}

// EIP-2718: the type byte, then the RLP list.
function typed(items: RlpItem[]): Buffer {
  return Buffer.concat([TYPE_2, encodeRlp(items)]);
}

// EIP-1559's field order.
function bodyOf(f: Eip1559Fields): RlpItem[] {
  return [
    unsignedBytes(f.chainId),
    unsignedBytes(f.nonce),
    unsignedBytes(f.maxPriorityFeePerGas),
    unsignedBytes(f.maxFeePerGas),
    unsignedBytes(f.gasLimit),
    hexBytes(f.to, 20),
    unsignedBytes(f.value),
    hexBytes(f.data),
    NO_ACCESS_LIST,
  ];
}
