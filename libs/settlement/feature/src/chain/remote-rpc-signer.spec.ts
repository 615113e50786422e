import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { Transaction, Wallet } from 'ethers';

import { loadChainSettlementConfig } from '../config';
import { RemoteRpcSigner } from './remote-rpc-signer';
import { SignerMismatchError } from './transfer-signer';

interface SignRequest {
  method: string;
  params: Array<Record<string, string>>;
}

// A tiny remote signer: answers eth_signTransaction with a key of its own, as Web3Signer does (the
// raw bytes) or as Clef does ({ raw, tx }), and records what it was asked and with which header.
async function startSigner(
  wallet: Pick<Wallet, 'signTransaction'>,
  answer: (tx: Record<string, string>, raw: string) => unknown = (_tx, raw) => raw,
): Promise<{
  url: string;
  seen: Array<{ authorization?: string; body: SignRequest }>;
  close(): Promise<void>;
}> {
  const seen: Array<{ authorization?: string; body: SignRequest }> = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => resolve(text));
    });
  const server: Server = createServer((req, res) => {
    void read(req).then(async (text) => {
      const body = JSON.parse(text) as SignRequest & { id: number };
      seen.push({ authorization: req.headers.authorization, body });
      const tx = body.params[0] as Record<string, string>;
      const raw = await wallet.signTransaction({
        type: tx['maxFeePerGas'] ? 2 : 0,
        to: tx['to'],
        nonce: Number(tx['nonce']),
        gasLimit: BigInt(tx['gas'] as string),
        value: BigInt(tx['value'] as string),
        data: tx['data'],
        chainId: BigInt(tx['chainId'] as string),
        maxFeePerGas: tx['maxFeePerGas'] ? BigInt(tx['maxFeePerGas']) : undefined,
        maxPriorityFeePerGas: tx['maxPriorityFeePerGas'] ? BigInt(tx['maxPriorityFeePerGas']) : undefined,
        gasPrice: tx['gasPrice'] ? BigInt(tx['gasPrice']) : undefined,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: answer(tx, raw) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('RemoteRpcSigner', () => {
  const wallet = Wallet.createRandom();
  const recipient = Wallet.createRandom().address;
  const fees = { maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
  const transfer = { recipient, baseUnits: 1_500_000n, nonce: 9n, fees, gasLimit: 65_000n };
  const configFor = (url: string, address = wallet.address) =>
    loadChainSettlementConfig({
      DATABASE_URL: 'postgres://localhost/x',
      USDC_ADDRESS: '0x' + '12'.repeat(20),
      SETTLEMENT_SIGNER_URL: url,
      SETTLEMENT_SIGNER_ADDRESS: address,
      SETTLEMENT_SIGNER_AUTHORIZATION: 'Bearer signer-token',
      RPC_TIMEOUT_MS: '2000',
    });
  const signerFor = (url: string, address?: string) => {
    const config = configFor(url, address);
    const [signer] = config.signers;
    if (signer?.kind !== 'remote') throw new Error('expected a remote signer');
    return new RemoteRpcSigner(config, signer);
  };

  it('asks eth_signTransaction with the whole transfer and the Authorization header, and checks the answer', async () => {
    const remote = await startSigner(wallet);
    try {
      const signed = await signerFor(remote.url).sign(transfer);
      const tx = Transaction.from(signed.rawTx);
      expect([tx.from, tx.nonce, tx.gasLimit, tx.chainId, tx.maxFeePerGas]).toEqual([
        wallet.address,
        9,
        65_000n,
        31337n,
        3_000_000_000n,
      ]);
      expect(remote.seen).toHaveLength(1);
      expect(remote.seen[0]?.authorization).toBe('Bearer signer-token');
      expect(remote.seen[0]?.body.method).toBe('eth_signTransaction');
      expect(remote.seen[0]?.body.params[0]).toMatchObject({
        from: wallet.address,
        nonce: '0x9', // JSON-RPC quantities: no leading zeros
        gas: '0xfde8',
        chainId: '0x7a69',
        maxFeePerGas: '0xb2d05e00',
      });
      expect(remote.seen[0]?.body.params[0]).not.toHaveProperty('gasPrice');
    } finally {
      await remote.close();
    }
  });

  it("takes Clef's { raw, tx } answer too", async () => {
    const remote = await startSigner(wallet, (tx, raw) => ({ raw, tx }));
    try {
      await expect(signerFor(remote.url).sign(transfer)).resolves.toHaveProperty('rawTx');
    } finally {
      await remote.close();
    }
  });

  it('refuses bytes signed by another key than the configured address, or for another nonce', async () => {
    const impostor = await startSigner(Wallet.createRandom());
    const renumbering = await startSigner(wallet, (_tx, raw) => raw);
    try {
      await expect(signerFor(impostor.url).sign(transfer)).rejects.toThrow(SignerMismatchError);
      // The same signer asked for nonce 9 but answering with bytes it signed for nonce 10 earlier.
      const stale = await signerFor(renumbering.url).sign({ ...transfer, nonce: 10n });
      const replaying = await startSigner(wallet, () => stale.rawTx);
      try {
        await expect(signerFor(replaying.url).sign(transfer)).rejects.toThrow(/has nonce 10 instead of 9/);
      } finally {
        await replaying.close();
      }
    } finally {
      await impostor.close();
      await renumbering.close();
    }
  });

  it('reports a signer that is down as a connection error (retried later), never as signed', async () => {
    const remote = await startSigner(wallet);
    const url = remote.url;
    await remote.close();
    await expect(signerFor(url).sign(transfer)).rejects.toThrow(/fetch failed/);
  });
});
