import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, matchRoute, type HttpRoute } from './HttpRoute.js';

const route = (method: HttpRoute['method'], path: string, operation: string): HttpRoute => ({
  method,
  path,
  operation,
  input: () => ({}),
  serve: () => null,
});

describe('matchRoute', () => {
  const routes = [
    route('GET', '/orders/status', 'status'),
    route('GET', '/orders/:orderId', 'get_order'),
    route('POST', '/orders/:orderId/cancel', 'cancel_order'),
  ];

  it('tries routes in order, matches the method, and decodes path parameters', () => {
    expect(matchRoute(routes, 'get', '/orders/status')?.route.operation).toBe('status');
    expect(matchRoute(routes, 'GET', '/orders/ord%2F1')).toEqual({ route: routes[1], params: { orderId: 'ord/1' } });
    expect(matchRoute(routes, 'POST', '/orders/ord-1/cancel/')).toEqual({
      route: routes[2],
      params: { orderId: 'ord-1' },
    });
  });

  it('sends a HEAD request no HEAD route takes to the GET route of its path', () => {
    const head = route('HEAD', '/orders/:orderId', 'head_order');
    expect(matchRoute(routes, 'HEAD', '/orders/ord-1')).toEqual({ route: routes[1], params: { orderId: 'ord-1' } });
    expect(matchRoute([head, ...routes], 'HEAD', '/orders/ord-1')?.route).toBe(head);
    expect(matchRoute(routes, 'HEAD', '/orders/ord-1/cancel')).toBeUndefined();
  });

  it('finds nothing for another method or another shape', () => {
    expect(matchRoute(routes, 'DELETE', '/orders/ord-1')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/orders/ord-1/extra')).toBeUndefined();
  });
});

describe('HTTP_METHODS', () => {
  it('names every method a client retries or sends, so both adapters intercept them all', () => {
    expect(HTTP_METHODS).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE']);
  });

  it('matches a route of each method only for that method', () => {
    const all = HTTP_METHODS.map((m) => route(m, '/things/:id', m.toLowerCase()));
    for (const m of HTTP_METHODS)
      expect(matchRoute(all, m, '/things/t-1')).toEqual({
        route: all.find((r) => r.method === m),
        params: { id: 't-1' },
      });
  });
});
