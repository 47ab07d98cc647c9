import { describe, expect, it } from 'vitest';
import { keepOwnModulesNative } from './ownModulesNative.js';

type Handler = (module: unknown, filename: string) => void;

/** Handlers as tsx leaves them: its `.js` handler in place of Node's, each noting which file it loaded. */
function registered(native: Handler = () => {}): { handlers: Record<string, Handler>; seen: string[] } {
  const seen: string[] = [];
  const handlers: Record<string, Handler> = {
    '.js': (_m, filename) => {
      seen.push(`tsx ${filename}`);
    },
  };
  keepOwnModulesNative(
    (module, filename) => {
      seen.push(`node ${filename}`);
      native(module, filename);
    },
    handlers,
    '/pkg/dist/',
  );
  return { handlers, seen };
}

describe('keepOwnModulesNative', () => {
  it("sends faultline's own built files to Node's handler and every other file to tsx's", () => {
    const { handlers, seen } = registered();
    for (const file of ['/pkg/dist/public/index.js', '/app/agent.js', '/pkg/distant/x.js', '/pkg/src/a.js'])
      handlers['.js']!({}, file);
    expect(seen).toEqual([
      'node /pkg/dist/public/index.js',
      'tsx /app/agent.js',
      'tsx /pkg/distant/x.js',
      'tsx /pkg/src/a.js',
    ]);
  });

  it('falls back to tsx where Node cannot require an ES module, and passes any other error on', () => {
    for (const code of ['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE']) {
      const { handlers, seen } = registered(() => {
        throw Object.assign(new Error(code), { code });
      });
      handlers['.js']!({}, '/pkg/dist/a.js');
      expect(seen).toEqual(['node /pkg/dist/a.js', 'tsx /pkg/dist/a.js']);
    }
    const broken = registered(() => {
      throw new SyntaxError('the module is broken');
    });
    expect(() => broken.handlers['.js']!({}, '/pkg/dist/a.js')).toThrow('the module is broken');
    expect(broken.seen).toEqual(['node /pkg/dist/a.js']);
  });

  it("wraps once, and not at all while the handler is still Node's own", () => {
    const { handlers, seen } = registered();
    const wrapped = handlers['.js'];
    keepOwnModulesNative(() => seen.push('a second native'), handlers, '/pkg/dist/');
    expect(handlers['.js']).toBe(wrapped);

    const node: Handler = () => {};
    const untouched: Record<string, Handler> = { '.js': node };
    keepOwnModulesNative(node, untouched, '/pkg/dist/');
    expect(untouched['.js']).toBe(node);
  });
});
