import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// After the e2e run: no secret the platform was given, no PII the specs sent (IBANs, names, email,
// street) and no bearer token may appear in any app's log. Secrets are looked for verbatim; tokens by their shape (a JWS: two base64url JSON parts).
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{20,}/;

export interface LogFinding {
  file: string;
  what: string;
}

export function scanLogs(logDir: string, secrets: Record<string, string>): LogFinding[] {
  const findings: LogFinding[] = [];
  const files = readdirSync(logDir).filter((f) => statSync(join(logDir, f)).isFile());
  for (const file of files) {
    const text = readFileSync(join(logDir, file), 'utf8');
    for (const [name, value] of Object.entries(secrets)) {
      if (value.length >= 12 && text.includes(value)) findings.push({ file, what: name });
    }
    if (JWT.test(text)) findings.push({ file, what: 'a bearer token (JWT)' });
  }
  return findings;
}
