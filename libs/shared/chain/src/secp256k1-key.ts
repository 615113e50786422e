import { keccak256, SigningKey } from 'ethers';
import type * as TinySecp256k1 from 'tiny-secp256k1';

import { hexBytes } from './rlp';

// Loaded with the first key: 1.2 MB of WebAssembly (about 27 ms and 11 MB of memory to load) that only
// a process that signs needs, not every user of @onramp/chain (the launcher, the local chain's helpers).
let secp256k1: typeof TinySecp256k1 | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of a heavy module
const library = (): typeof TinySecp256k1 => (secp256k1 ??= require('tiny-secp256k1') as typeof TinySecp256k1);

export interface RecoverableSignature {
  r: Uint8Array; // 32 bytes
  s: Uint8Array; // 32 bytes, in the lower half of the curve order (EIP-2)
  yParity: 0 | 1;
}

// A private key that signs 32-byte digests with libsecp256k1 (Bitcoin Core's library, compiled to
// WebAssembly by tiny-secp256k1): about 260 us a signature on the reference machine against about 680
// for ethers' JavaScript signer (noble), with the same deterministic nonces (RFC 6979), so the same
// signatures (docs/performance-journal.md). Each key proves it at construction: a digest signed both ways
// must give the same r, s and parity, or the key refuses to be made and nothing is ever signed with a
// library that disagrees with ethers.
export class Secp256k1Key {
  private readonly key: Uint8Array;

  constructor(privateKey: string) {
    this.key = hexBytes(privateKey, 32);
    const probe = hexBytes(keccak256(this.key), 32); // any digest will do; this one is the key's own
    const ours = this.sign(probe);
    const theirs = new SigningKey(privateKey).sign(probe);
    const same =
      Buffer.from(ours.r).equals(hexBytes(theirs.r)) &&
      Buffer.from(ours.s).equals(hexBytes(theirs.s)) &&
      ours.yParity === theirs.yParity;
    if (!same) throw new Error('libsecp256k1 and ethers disagree on a signature; refusing to sign with it');
  }

  sign(digest: Uint8Array): RecoverableSignature {
    const { signature, recoveryId } = library().signRecoverable(digest, this.key);
    // 2 and 3 mean an r beyond the curve's order (odds about 2^-128), which Ethereum cannot carry
    if (recoveryId > 1) throw new Error('signature with an r beyond the curve order; sign again');
    return { r: signature.subarray(0, 32), s: signature.subarray(32, 64), yParity: recoveryId as 0 | 1 };
  }
}
