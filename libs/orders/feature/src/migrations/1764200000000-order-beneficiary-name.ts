import { addColumnMigration } from '@onramp/persistence';

// The account holder of the collection account an order is paid into, shown with the IBAN (payer
// banks check the pair before an instant transfer) and written into the order's EPC QR code.
export const OrderBeneficiaryName1764200000000 = addColumnMigration('OrderBeneficiaryName1764200000000', {
  table: 'orders.orders',
  column: 'beneficiary_name',
  definition: 'TEXT',
});
