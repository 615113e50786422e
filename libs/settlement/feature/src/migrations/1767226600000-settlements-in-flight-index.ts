import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'settlement';

// A signer's transactions in flight (SIGNED, BROADCAST) by nonce: the worker's in-flight look at
// every pass, the wallet's commitments before every signing batch and the signers' gauges read only
// them. Before it they walked settlements_to_drive (every open settlement of every signer, a drain's
// whole PENDING backlog included: 2,000 rows read to find a dozen) or the signer's whole history
// by nonce (settlements_one_tx_per_nonce).
export class SettlementsInFlightIndex1767226600000 implements MigrationInterface {
  name = 'SettlementsInFlightIndex1767226600000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(
      `CREATE INDEX "settlements_in_flight" ON "${S}"."settlements" ("signer_address", "nonce")
       WHERE "state" IN ('SIGNED', 'BROADCAST')`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "${S}"."settlements_in_flight"`);
  }
}
