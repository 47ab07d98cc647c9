/** A bounded sink for one output stream. */
export class Output {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.#kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
