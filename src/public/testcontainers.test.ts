import { describe, expect, it } from 'vitest';
import { startPostgres } from './testcontainers.js';

describe('faultline/testcontainers', () => {
  it('is the package subpath of this entry file', async () => {
    const viaPackage = await import('faultline/testcontainers');
    expect(viaPackage.startPostgres).toBe(startPostgres);
    expect(Object.keys(viaPackage).sort()).toEqual([
      'DEFAULT_POSTGRES_IMAGE',
      'LOCAL_POSTGRES_IMAGE',
      'PgDatabase',
      'PgIdempotencyTable',
      'PgOrdersService',
      'PgPaymentsService',
      'PostgresOperationStore',
      'PostgresWorld',
      'connectPool',
      'createPostgresWorld',
      'ensureWorldSchema',
      'memoryBackend',
      'postgresBackend',
      'resetWorld',
      'startPostgres',
    ]);
  });

  it('uses a given connection string without looking for Docker', async () => {
    const pg = await startPostgres({ databaseUrl: 'postgres://u:p@127.0.0.1:1/db' });
    expect(pg.url).toBe('postgres://u:p@127.0.0.1:1/db');
    expect(pg.source).toBe('DATABASE_URL');
    await expect(pg.stop()).resolves.toBeUndefined();
  });
});
