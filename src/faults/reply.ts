/** What one delivery produced, as the service answered it. */
export type Answer =
  { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: Error };

/** What reaches the caller; the tag is the `response` event's `result`. */
export type Reply = Answer | { readonly kind: 'lost'; readonly message: string };
export type ReplyKind = Reply['kind'];
