// `npm run migrate -- [service|all]` (compiled: node dist/tools/migrate/main.js [service|all]): brings
// the schema of one service, or of all six, to this build's version. Every run takes the same Postgres
// advisory lock, so any number of concurrent runs (and apps migrating at boot in sandbox) serialise.
// Reads DATABASE_URL; with one database role per service, run it once per service with that role's URL.
import { migrateService } from '@onramp/persistence';

import {
  DATABASE_SERVICES,
  DatabaseService,
  isDatabaseService,
  loadServiceDatabase,
} from './service-databases';

const USAGE = `usage: migrate [${DATABASE_SERVICES.join('|')}|all]   (reads DATABASE_URL)`;

async function main(argv: string[]): Promise<number> {
  const target = argv[0] ?? 'all';
  if (argv.length > 1 || target === '--help' || (target !== 'all' && !isDatabaseService(target))) {
    process.stderr.write(`${USAGE}\n`);
    return target === '--help' ? 0 : 2;
  }
  const url = process.env['DATABASE_URL'];
  if (!url) {
    process.stderr.write(`invalid configuration: DATABASE_URL is required\n${USAGE}\n`);
    return 2;
  }
  const services: readonly DatabaseService[] = target === 'all' ? DATABASE_SERVICES : [target];
  for (const name of services) {
    const t0 = Date.now();
    const result = await migrateService({ url, ...loadServiceDatabase(name) }, (m) => say(`${name}: ${m}`));
    const what = result.applied.length === 0 ? 'up to date' : `applied ${result.applied.join(', ')}`;
    say(`${name} (schema ${result.schema}): ${what} in ${Date.now() - t0} ms`);
  }
  return 0;
}

function say(line: string): void {
  process.stdout.write(`[migrate] ${line}\n`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // The message only: a driver error can carry the connection string, never print the URL itself.
    process.stderr.write(`[migrate] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
