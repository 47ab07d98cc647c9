export { PgDatabase, type PgConnector, type PgQueryable } from './PgDatabase.js';
export { ensureWorldSchema, resetWorld, WORLD_SCHEMA_SQL, WORLD_TABLES } from './schema.js';
export { PgIdempotencyTable, type Claim, type ClaimKind } from './PgIdempotencyTable.js';
export { PgLedger } from './PgLedger.js';
export { PgOperations, type CommitEffect, type PgWriteSteps } from './PgOperations.js';
export { PgOrdersService } from './PgOrdersService.js';
export { PgPaymentsService } from './PgPaymentsService.js';
export { PostgresWorld } from './PostgresWorld.js';
export { createPostgresWorld, type PostgresWorldOptions } from './createPostgresWorld.js';
