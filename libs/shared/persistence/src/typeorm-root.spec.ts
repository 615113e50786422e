import { dbPoolSize, migrationBootPolicy } from './typeorm-root';

describe('dbPoolSize', () => {
  it('is 10 unless DB_POOL_SIZE says otherwise', () => {
    expect(dbPoolSize({})).toBe(10);
    expect(dbPoolSize({ DB_POOL_SIZE: '4' })).toBe(4);
  });

  it('refuses a pool of zero or a non-integer, naming the variable', () => {
    expect(() => dbPoolSize({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE must be >= 1/);
    expect(() => dbPoolSize({ DB_POOL_SIZE: 'many' })).toThrow(/DB_POOL_SIZE must be an integer/);
  });
});

describe('migrationBootPolicy', () => {
  it('migrates at boot in sandbox and waits for the migrate step in production', () => {
    expect(migrationBootPolicy({}).migrateAtBoot).toBe(true);
    expect(migrationBootPolicy({ ONRAMP_MODE: 'production' }).migrateAtBoot).toBe(false);
    expect(migrationBootPolicy({ ONRAMP_MODE: 'sandbox', DB_MIGRATE_AT_BOOT: 'false' }).migrateAtBoot).toBe(
      false,
    );
  });
});
