import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

import { randomToken } from '@onramp/crypto';

// `Algorithm` is a `declare const enum`: the package exports no runtime value for it, and SWC
// does not inline const enums, so the member is spelled out here (Algorithm.Argon2id === 2).
const ARGON2ID = 2 as Algorithm;

// Argon2id with the library's defaults (19 MiB, t=2, p=1: the OWASP baseline).
@Injectable()
export class SecretHasher {
  // Verifying against this when the merchant does not exist costs the same as a real check,
  // so response time does not tell whether a merchant id exists.
  private readonly dummyHash: Promise<string> = this.hash(randomToken());

  hash(secret: string): Promise<string> {
    return hash(secret, { algorithm: ARGON2ID });
  }

  // No stored hash (unknown merchant): same work, always false.
  async verify(secretHash: string | undefined, secret: string): Promise<boolean> {
    try {
      const ok = await verify(secretHash ?? (await this.dummyHash), secret);
      return ok && secretHash !== undefined;
    } catch {
      return false; // a corrupt hash never authenticates
    }
  }
}
