import { lookup as dnsLookup, LookupAddress, LookupAllOptions } from 'node:dns';
import { LookupFunction } from 'node:net';

import { connectAddressViolation, UrlPolicyOptions } from '@onramp/webhooks-domain';

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

export const ADDRESS_NOT_ALLOWED = 'EADDRNOTALLOWED';

// The socket connects only to what this lookup returns, so checking here (not before the request)
// closes the DNS-rebinding gap. If any resolved address is refused, the whole name is refused: an
// attacker could otherwise mix a public and a private record.
export function guardedLookup(
  policy: UrlPolicyOptions & { protocol: 'http:' | 'https:' },
  resolve: Resolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0) {
        return callback(
          Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }),
          '',
          0,
        );
      }
      for (const a of addresses) {
        const violation = connectAddressViolation(a.address, policy);
        if (violation) {
          // The address itself stays out of the message: merchants see it in their delivery log, and
          // it would make us an oracle for our internal DNS.
          const refused = new Error(
            `${hostname} resolves to a forbidden destination (${violation}); not connected`,
          );
          return callback(Object.assign(refused, { code: ADDRESS_NOT_ALLOWED }), '', 0);
        }
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
