/**
 * What a send rejected by the client's adaptive throttling fails with. Nothing left the
 * client: the classifier reads it as `unavailable`, and it is never an uncertain outcome.
 */
export class ClientThrottledError extends Error {
  override readonly name = 'ClientThrottledError';
  readonly code = 'ETHROTTLED';
  constructor(readonly rejectProbability: number) {
    super(
      `rejected by the client's adaptive throttling: not sent, the service has accepted too little of ` +
        `late (reject probability ${rejectProbability.toFixed(2)})`,
    );
  }
}
