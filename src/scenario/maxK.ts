/**
 * The most trials per scenario × configuration one run takes. A run's trials are planned before
 * the first starts, so `--k 1000000000` would spend minutes allocating before a fatal
 * out-of-memory; past this, shard the run (`--shard i/n`) or run it again with another seed.
 */
export const MAX_K = 100_000;
