/**
 * What a send refused by an open circuit breaker rejects with. Nothing left the client: the
 * classifier reads it as `unavailable` (transient), and it is never an uncertain outcome.
 */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  readonly code = 'ECIRCUITOPEN';
  constructor(readonly retryInMs: number) {
    super(`circuit breaker open: not sent, the service failed too often (next probe in ${Math.ceil(retryInMs)} ms)`);
  }
}
