export * from './rf-reference';
export * from './epc-qr-payload';
export * from './qr/qr-code';
export * from './qr/qr-svg';
export * from './camt054-builder';
export * from './collection-accounts';
