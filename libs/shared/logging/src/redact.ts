// Last line of defence: log messages are written not to contain secrets, but an error message from a
// library can quote a header or a connection string. These patterns are masked in every JSON line.
const PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi, '$1:[redacted]@'],
  [
    /\b(password|passwd|secret|api[_-]?key|private[_-]?key)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
    '$1$2[redacted]',
  ],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
