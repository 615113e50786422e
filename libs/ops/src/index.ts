export { compareLedgers } from './reconcile/compare-ledgers';
export { formatReconcileReport } from './reconcile/format-report';
export type {
  ChainTransfer,
  LedgerOrder,
  LedgerSettlement,
  LedgerSnapshot,
  Mismatch,
  MismatchKind,
  ReconcileFigures,
} from './reconcile/ledger.types';
export { reconcile } from './reconcile/reconcile';
export type { ReconcileOptions, ReconcileReport } from './reconcile/reconcile';
export {
  dlqTopicFor,
  isDeadLetterTopic,
  matchesFilter,
  replayGroupId,
  replayHeaders,
  sourceTopicOf,
} from './dead-letters/dead-letter-record';
export type { DeadLetter, DeadLetterFilter } from './dead-letters/dead-letter-record';
export { DEFAULT_REPLAY_GROUP, replayDeadLetters } from './dead-letters/replay-dead-letters';
export { replayEmbeddedDeadLetters } from './dead-letters/replay-embedded-dead-letters';
export type { ReplayEmbeddedDeadLettersOptions } from './dead-letters/replay-embedded-dead-letters';
export type {
  ReplayDeadLettersOptions,
  ReplayedDeadLetter,
  ReplayResult,
} from './dead-letters/replay-dead-letters';
export { rekeyKyc } from './rekey/rekey-kyc';
export type { RekeyOptions, RekeyReport } from './rekey/rekey-kyc';
export { rekeyPayerData, rekeyWebhookSecrets } from './rekey/rekey-payer-data';
export type { RekeyPayerDataOptions, RekeyPayerDataReport } from './rekey/rekey-payer-data';
export type { ResealReport, SealedTable } from './rekey/sealed-tables';
export { rekeyAuthSigningKeys } from './rekey/rekey-auth-keys';
export type { RekeyAuthKeysOptions } from './rekey/rekey-auth-keys';
