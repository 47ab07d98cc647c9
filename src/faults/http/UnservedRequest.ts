/** A request no route of the trial serves (see `HttpFaults.refuseUnserved`). */
export interface UnservedRequest {
  readonly method: string;
  readonly url: string;
  readonly served: readonly string[];
  /** Whether `served` lists routes at the request's origin (else: the origins served). */
  readonly servedHere: boolean;
}
