import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A merchant installs only this package: its code may import itself and node:crypto, nothing else.
describe('the SDK is standalone', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });

  it('imports only relative modules and node:crypto', () => {
    const files = sources(__dirname);
    expect(files.length).toBeGreaterThan(5);
    const foreign = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)]
        .map((m) => m[1])
        .filter((spec) => !spec.startsWith('./') && !spec.startsWith('../') && spec !== 'node:crypto')
        .map((spec) => `${file}: ${spec}`),
    );
    expect(foreign).toEqual([]);
  });
});
