/** `T` with its fields writable: for an event or request built key by key, its optional fields set only when present. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
