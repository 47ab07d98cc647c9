/** Where a key repeats inside one JSON object: the key, its path, and the line and column of the repeat. */
export interface DuplicateKey {
  readonly key: string;
  /** The path of the object holding it, as `formatPath` takes it. */
  readonly path: readonly (string | number)[];
  readonly line: number;
  readonly col: number;
}

/**
 * The first key that appears twice in one object of `text`, which must already be valid JSON
 * (`JSON.parse` succeeded). `JSON.parse` keeps the last value silently, so a repeated
 * `"fault"` would hide the rule the author meant; this scan finds it. Keys compare decoded,
 * so `"a"` and `"\u0061"` are the same key.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  let i = 0;
  const path: (string | number)[] = [];
  const skipSpace = (): void => {
    while (i < text.length && /[\s\uFEFF]/.test(text[i]!)) i++;
  };
  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const position = (at: number): { line: number; col: number } => {
    const before = text.slice(0, at).split('\n');
    return { line: before.length, col: before[before.length - 1]!.length + 1 };
  };
  const value = (): DuplicateKey | undefined => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys = new Set<string>();
      skipSpace();
      if (text[i] === '}') {
        i++;
        return undefined;
      }
      for (;;) {
        skipSpace();
        const at = i;
        const key = readString();
        if (keys.has(key)) return { key, path: [...path], ...position(at) };
        keys.add(key);
        skipSpace();
        i++; // colon
        path.push(key);
        const found = value();
        path.pop();
        if (found) return found;
        skipSpace();
        if (text[i++] === '}') return undefined;
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return undefined;
      }
      for (let index = 0; ; index++) {
        path.push(index);
        const found = value();
        path.pop();
        if (found) return found;
        skipSpace();
        if (text[i++] === ']') return undefined;
      }
    }
    if (c === '"') {
      readString();
      return undefined;
    }
    // A number, true, false or null: up to the next delimiter.
    while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    return undefined;
  };
  return value();
}
