import { parseKey } from './field-cipher';

// Keys published in this repository so sandbox mode and tests run without configuration. Anyone can
// read them, so production refuses each of them in any spelling (hex or base64 of the same bytes).
export const DEVELOPMENT_KEYS = {
  authKeyEncryption: '6f6e72616d702d73616e64626f782d617574682d6b65792d656e637279707421',
  kycEncryption: '6b79632d6465762d6b65792d6e6f742d666f722d70726f64756374696f6e2121',
  webhookSecretEncryption: 'ZGV2LW9ubHktd2ViaG9vay1zZWNyZXQta2V5LTMyYiE=',
  payerDataEncryption: '6f6e72616d702d70617965722d646174612d6465762d6b65792d6f6e6c792121',
  serviceSecret: '6f6e72616d702d73616e64626f782d736572766963652d736563726574212121',
} as const;

const developmentKeyBytes = Object.values(DEVELOPMENT_KEYS).map((k) => parseKey(k));

// True when the material decodes to one of the development keys, whichever service it was meant for.
export function isDevelopmentKey(material: string): boolean {
  let bytes: Buffer;
  try {
    bytes = parseKey(material.trim());
  } catch {
    return false;
  }
  return developmentKeyBytes.some((k) => k.equals(bytes));
}
