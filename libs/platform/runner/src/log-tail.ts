import { readFileSync } from 'node:fs';

// The last lines of an app's log, for the error that says why it did not come up.
export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
