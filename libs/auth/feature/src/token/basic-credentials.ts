export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

// RFC 7617 Basic: the scheme is case-insensitive, the user-id ends at the first colon (the secret
// may contain colons). Anything malformed is "no credentials", never an exception.
export function parseBasicCredentials(header: string | undefined): ClientCredentials | undefined {
  if (!header) return undefined;
  const match = /^\s*basic\s+(\S+)\s*$/i.exec(header);
  if (!match || !BASE64.test(match[1]) || match[1].length % 4 !== 0) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const clientId = decoded.slice(0, colon);
  const clientSecret = decoded.slice(colon + 1);
  if (clientSecret.length === 0) return undefined;
  return { clientId, clientSecret };
}
