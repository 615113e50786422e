import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { buildOpenApiDocuments, DOCUMENT_HOSTS, renderDocument } from './openapi-documents';

export const REPO_ROOT = join(__dirname, '..', '..');
export const DOCS_DIR = join(REPO_ROOT, 'docs', 'openapi');
export const documentPath = (host: string): string => join(DOCS_DIR, `${host}.openapi.json`);

// The documents carry the platform's version (package.json).
export function platformVersion(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

async function main(): Promise<void> {
  const documents = await buildOpenApiDocuments(platformVersion());
  mkdirSync(DOCS_DIR, { recursive: true });
  for (const host of DOCUMENT_HOSTS) {
    const file = documentPath(host);
    writeFileSync(file, renderDocument(documents[host]));
    const operations = Object.values(documents[host].paths).reduce(
      (n, item) => n + Object.keys(item).length,
      0,
    );
    process.stdout.write(`${relative(REPO_ROOT, file)}: ${operations} operations\n`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
