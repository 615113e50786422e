import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The version of the @onramp/cli package this CLI runs from (tools/cli/package.json).
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}
