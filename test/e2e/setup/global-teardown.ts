export default async function globalTeardown(): Promise<void> {
  await globalThis.__ONRAMP_E2E__?.stop();
}
