import { getAddress, toQuantity, TransactionRequest } from 'ethers';

import { ChainSettlementConfig } from '../config';
import { withDeadline } from './rpc-deadline';
import { TransferSigner } from './transfer-signer';

type RemoteSigner = Extract<ChainSettlementConfig['signers'][number], { kind: 'remote' }>;

// Signs through a remote signer over JSON-RPC eth_signTransaction, as Web3Signer and Clef (and a
// node with unlocked accounts, such as anvil) answer it: the key never enters this process. The
// answer is the signed transaction's bytes (Clef wraps them as { raw }); TransferSigner checks them
// against the request before they are stored. The Authorization header (SETTLEMENT_SIGNER_AUTHORIZATION)
// is sent with every call and never logged.
export class RemoteRpcSigner extends TransferSigner {
  readonly address: string;
  private nextId = 1;

  constructor(
    config: ChainSettlementConfig,
    private readonly remote: RemoteSigner,
  ) {
    super(config);
    this.address = getAddress(remote.address);
  }

  protected async signRequest(request: TransactionRequest): Promise<string> {
    const tx: Record<string, string> = {
      from: this.address,
      to: String(request.to),
      nonce: toQuantity(request.nonce as number),
      gas: toQuantity(request.gasLimit as bigint),
      value: toQuantity(request.value as bigint),
      data: String(request.data),
      chainId: toQuantity(request.chainId as bigint),
    };
    if (request.type === 0) tx['gasPrice'] = toQuantity(request.gasPrice as bigint);
    else {
      // No "type" field: Web3Signer, Clef and geth infer EIP-1559 from these two, and not all accept it.
      tx['maxFeePerGas'] = toQuantity(request.maxFeePerGas as bigint);
      tx['maxPriorityFeePerGas'] = toQuantity(request.maxPriorityFeePerGas as bigint);
    }
    const result = await withDeadline(
      this.call('eth_signTransaction', [tx]),
      this.config.rpcTimeoutMs,
      'eth_signTransaction',
    );
    const raw = typeof result === 'string' ? result : (result as { raw?: unknown } | null)?.raw;
    if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw))
      throw new Error('the remote signer answered eth_signTransaction without signed transaction bytes');
    return raw;
  }

  private async call(method: string, params: unknown[]): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.remote.authorization) headers['authorization'] = this.remote.authorization;
    const res = await fetch(this.remote.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(this.config.rpcTimeoutMs + 1000),
    });
    if (!res.ok) throw new Error(`remote signer answered ${method} with HTTP ${res.status}`);
    const body = (await res.json()) as { result?: unknown; error?: { code?: number; message?: string } };
    if (body.error)
      throw new Error(`remote signer refused ${method}: ${String(body.error.message ?? body.error.code)}`);
    return body.result;
  }
}
