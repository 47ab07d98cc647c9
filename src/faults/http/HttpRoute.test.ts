import { describe, expect, it } from 'vitest';
import { matchRoute, parseBody, type HttpRoute } from './HttpRoute.js';

const route = (method: HttpRoute['method'], path: string, operation: string): HttpRoute => ({ method, path, operation, input: () => ({}), serve: () => null });

describe('matchRoute', () => {
  const routes = [route('GET', '/orders/status', 'status'), route('GET', '/orders/:orderId', 'get_order'), route('POST', '/orders/:orderId/cancel', 'cancel_order')];

  it('tries routes in order, matches the method, and decodes path parameters', () => {
    expect(matchRoute(routes, 'get', '/orders/status')?.route.operation).toBe('status');
    expect(matchRoute(routes, 'GET', '/orders/ord%2F1')).toEqual({ route: routes[1], params: { orderId: 'ord/1' } });
    expect(matchRoute(routes, 'POST', '/orders/ord-1/cancel/')).toEqual({ route: routes[2], params: { orderId: 'ord-1' } });
  });

  it('finds nothing for another method or another shape', () => {
    expect(matchRoute(routes, 'DELETE', '/orders/ord-1')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/orders/ord-1/extra')).toBeUndefined();
  });
});

describe('parseBody', () => {
  it('reads JSON, keeps other text as is, and an empty body as undefined', () => {
    expect([parseBody('{"a":1}'), parseBody('not json'), parseBody('')]).toEqual([{ a: 1 }, 'not json', undefined]);
  });
});
