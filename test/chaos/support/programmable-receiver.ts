// The receiver moved to @onramp/testing so the soak run (tools/ops/soak) records webhooks the same way.
export { ProgrammableReceiver } from '@onramp/testing';
export type { Answer, ReceivedDelivery } from '@onramp/testing';
