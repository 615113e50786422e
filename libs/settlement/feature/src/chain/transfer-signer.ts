import { keccak256, Transaction, TransactionRequest } from 'ethers';

import { encodeErc20Transfer } from '@onramp/chain';
import { FeeParams } from '@onramp/settlement-domain';

import { ChainSettlementConfig } from '../config';

export interface TransferToSign {
  recipient: string;
  baseUnits: bigint;
  nonce: bigint;
  fees: FeeParams;
  gasLimit: bigint;
}

export interface SignedTransfer {
  rawTx: string;
  txHash: string;
}

// What a replacement of a stored transaction may change: its fees, and its gas limit after a node
// refused it as too low. Never the recipient, the amount, the nonce or the chain.
export interface ReplacementChanges {
  fees: FeeParams;
  gasLimit?: bigint;
}

// The seam between settlement and whatever holds the hot wallet's key: a key in this process
// (LocalKeySigner) or a remote signer over JSON-RPC (RemoteRpcSigner: Web3Signer, Clef). An abstract
// class rather than a TypeScript interface so Nest can inject it by type. Both sign the request built
// here, and both answers are checked here against that request before anyone stores them: a signer
// that returns other bytes (another nonce, recipient, chain or key) is refused, never broadcast.
// The nonce is always explicit (allocated under the signer row lock).
export abstract class TransferSigner {
  abstract readonly address: string;
  // True only when the key is in this process and the bytes come from ethers' own signing with it
  // (LocalKeySigner): the signature is then ours by construction, and recovering its signer (an
  // elliptic-curve recovery, about as costly as the signing itself and a sizeable share of the
  // settlement's CPU) cannot find another key. Every field is still checked; a remote signer's
  // answer is also checked for its key.
  protected readonly keyInProcess: boolean = false;

  constructor(protected readonly config: ChainSettlementConfig) {}

  protected abstract signRequest(request: TransactionRequest): Promise<string>;

  // The signed bytes of a request and the transaction they are (and their hash, when the signer has
  // it already). A remote signer's bytes are decoded; LocalKeySigner's too when it encoded them itself,
  // else it keeps the transaction object it signed.
  protected async signedTransaction(
    request: TransactionRequest,
  ): Promise<{ rawTx: string; tx: Transaction; txHash?: string }> {
    const rawTx = await this.signRequest(request);
    return { rawTx, tx: Transaction.from(rawTx) };
  }

  async sign(transfer: TransferToSign): Promise<SignedTransfer> {
    const base: TransactionRequest = {
      chainId: BigInt(this.config.chainId),
      nonce: Number(transfer.nonce),
      to: this.config.usdcAddress,
      value: 0n,
      data: encodeErc20Transfer(transfer.recipient, transfer.baseUnits),
      gasLimit: transfer.gasLimit,
    };
    return this.signChecked(withFees(base, transfer.fees));
  }

  // The same transfer (recipient, amount, nonce, chain) rebuilt from the stored bytes, with other
  // fees and maybe a higher gas limit.
  async signReplacement(previousRawTx: string, changes: ReplacementChanges): Promise<SignedTransfer> {
    const previous = Transaction.from(previousRawTx);
    if (previous.from !== this.address)
      throw new Error(`transaction ${previous.hash} was signed by ${previous.from}, not by this hot wallet`);
    const base: TransactionRequest = {
      chainId: previous.chainId,
      nonce: previous.nonce,
      to: previous.to,
      value: previous.value,
      data: previous.data,
      gasLimit: changes.gasLimit ?? previous.gasLimit,
    };
    return this.signChecked(withFees(base, changes.fees));
  }

  private async signChecked(request: TransactionRequest): Promise<SignedTransfer> {
    const { rawTx, tx, txHash } = await this.signedTransaction(request);
    const problem = mismatchOf(tx, request, this.keyInProcess ? undefined : this.address);
    if (problem) throw new SignerMismatchError(`the signer returned a transaction that ${problem}; refused`);
    // the hash of the bytes as they are (decoding them checked they are a transaction's canonical form)
    return { rawTx, txHash: txHash ?? keccak256(rawTx) };
  }
}

// A signer answered with bytes that are not the transfer asked for. Nothing is stored or sent.
export class SignerMismatchError extends Error {}

// `signedBy` undefined: the key is not checked (see keyInProcess).
function mismatchOf(
  tx: Transaction,
  want: TransactionRequest,
  signedBy: string | undefined,
): string | undefined {
  const fees = feesOf(tx);
  const checks: Array<[string, unknown, unknown]> = [
    ...(signedBy === undefined
      ? []
      : ([['is signed by', tx.from?.toLowerCase(), signedBy.toLowerCase()]] as Array<
          [string, unknown, unknown]
        >)),
    // addresses compared by their 20 bytes (lower case), not by checksumming both (a keccak each)
    ['goes to', tx.to?.toLowerCase(), String(want.to).toLowerCase()],
    ['has nonce', BigInt(tx.nonce), BigInt(want.nonce as number)],
    ['is for chain', tx.chainId, BigInt(want.chainId as bigint)],
    ['carries data', tx.data.toLowerCase(), String(want.data).toLowerCase()],
    ['sends value', tx.value, BigInt(want.value as bigint)],
    ['has gas limit', tx.gasLimit, BigInt(want.gasLimit as bigint)],
    [
      'offers fees',
      fees && JSON.stringify(fees, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      JSON.stringify(wantFees(want), (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
    ],
  ];
  const bad = checks.find(([, got, expected]) => got !== expected);
  return bad ? `${bad[0]} ${String(bad[1])} instead of ${String(bad[2])}` : undefined;
}

function wantFees(request: TransactionRequest): FeeParams {
  return request.type === 0
    ? { gasPrice: BigInt(request.gasPrice as bigint) }
    : {
        maxFeePerGas: BigInt(request.maxFeePerGas as bigint),
        maxPriorityFeePerGas: BigInt(request.maxPriorityFeePerGas as bigint),
      };
}

function withFees(base: TransactionRequest, fees: FeeParams): TransactionRequest {
  return 'gasPrice' in fees
    ? { ...base, type: 0, gasPrice: fees.gasPrice }
    : { ...base, type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

function feesOf(tx: Transaction): FeeParams | undefined {
  if (tx.type === 2 && tx.maxFeePerGas !== null && tx.maxPriorityFeePerGas !== null)
    return { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
  if (tx.type !== 2 && tx.gasPrice !== null) return { gasPrice: tx.gasPrice };
  return undefined;
}

// The fees a signed transaction offers, read from its bytes.
export function feesOfSigned(rawTx: string): FeeParams {
  const tx = Transaction.from(rawTx);
  const fees = feesOf(tx);
  if (!fees) throw new Error(`transaction ${tx.hash} carries no fees`);
  return fees;
}

// The gas limit a signed transaction was given.
export function gasLimitOfSigned(rawTx: string): bigint {
  return Transaction.from(rawTx).gasLimit;
}
