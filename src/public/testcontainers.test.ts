import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as entry from './testcontainers.js';

const { startPostgres } = entry;

describe('faultline/testcontainers', () => {
  it('is the package subpath of this entry file', async () => {
    // The subpath points at this entry compiled into dist/ (the test suite builds it first).
    expect(createRequire(import.meta.url).resolve('faultline/testcontainers')).toMatch(
      /[/\\]dist[/\\]public[/\\]testcontainers\.js$/,
    );
    const viaPackage = await import('faultline/testcontainers');
    expect(Object.keys(viaPackage).sort()).toEqual(Object.keys(entry).sort());
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
