import { MigrationInterface, QueryRunner } from 'typeorm';

// The account holder of the collection account an order is paid into, shown with the IBAN (payer
// banks check the pair before an instant transfer) and written into the order's EPC QR code.
export class OrderBeneficiaryName1764200000000 implements MigrationInterface {
  name = 'OrderBeneficiaryName1764200000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "orders"."orders" ADD COLUMN "beneficiary_name" TEXT`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "orders"."orders" DROP COLUMN "beneficiary_name"`);
  }
}
