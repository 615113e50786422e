// The path as a router that forgives encodings would see it, for deciding which limit applies:
// percent-decoded (so /auth/%74oken is /auth/token), duplicate slashes collapsed, dot segments
// resolved, lower case. Never forwarded: the upstream gets the bytes the client sent.
export function normalisePath(rawUrl: string): string {
  const raw = rawUrl.split('?')[0].split('#')[0];
  let decoded = raw;
  // Twice: a double-encoded %2574 must not hide a path either (decoding is idempotent past that).
  for (let i = 0; i < 2; i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break; // malformed escapes stay as they are; the router refuses them anyway
    }
  }
  const out: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment.toLowerCase());
  }
  return `/${out.join('/')}`;
}
