import { describe, expect, it } from 'vitest';
import type { RouteRequest } from './HttpRoute.js';
import { mergedInput } from './mergedInput.js';
import { parseBody, parseForm, parseRequestBody } from './requestBody.js';

describe('parseBody', () => {
  it('reads JSON, keeps other text as is, and an empty body as undefined', () => {
    expect([parseBody('{"a":1}'), parseBody('not json'), parseBody('')]).toEqual([{ a: 1 }, 'not json', undefined]);
  });
});

describe('parseRequestBody', () => {
  it('reads a body by its content type', () => {
    expect(parseRequestBody('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(parseRequestBody('{"a":1}', 'application/merge-patch+json')).toEqual({ a: 1 });
    expect(parseRequestBody('amount=2000&currency=usd', 'application/x-www-form-urlencoded')).toEqual({
      amount: '2000',
      currency: 'usd',
    });
    expect(parseRequestBody('{"a":1}', 'text/plain')).toBe('{"a":1}');
    expect(parseRequestBody('<a/>', 'application/xml')).toBe('<a/>');
  });

  it('keeps JSON that does not parse as text, reads an untyped body as JSON if it can, and an empty one as undefined', () => {
    expect(parseRequestBody('{"a":', 'application/json')).toBe('{"a":');
    expect([parseRequestBody('[1]', undefined), parseRequestBody('hi', undefined)]).toEqual([[1], 'hi']);
    expect(parseRequestBody('', 'application/x-www-form-urlencoded')).toBeUndefined();
  });
});

describe('parseForm', () => {
  it('nests bracketed keys as Stripe sends them', () => {
    expect(parseForm('amount=2000&metadata[order]=1&metadata[note]=a%20b+c')).toEqual({
      amount: '2000',
      metadata: { order: '1', note: 'a b c' },
    });
    expect(parseForm('payment_method_data[billing_details][address][city]=Paris')).toEqual({
      payment_method_data: { billing_details: { address: { city: 'Paris' } } },
    });
  });

  it('builds arrays from [], from indices and from a repeated key', () => {
    expect(parseForm('expand[]=a&expand[]=b')).toEqual({ expand: ['a', 'b'] });
    expect(parseForm('expand[0]=a&expand[1]=b')).toEqual({ expand: ['a', 'b'] });
    expect(parseForm('tag=a&tag=b&tag=c')).toEqual({ tag: ['a', 'b', 'c'] });
    expect(parseForm('items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2')).toEqual({
      items: [{ price: 'p1', quantity: '2' }, { price: 'p2' }],
    });
  });

  it('keeps a sparse index, a key that is not bracketed, and an empty value as they are', () => {
    expect(parseForm('a[2]=x')).toEqual({ a: { 2: 'x' } });
    expect(parseForm('a]b=1&[c]=2&d=')).toEqual({ 'a]b': '1', '[c]': '2', d: '' });
  });

  it('never writes to a prototype', () => {
    const parsed = parseForm('__proto__[polluted]=yes&constructor[prototype][bad]=1');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor']);
  });
});

describe('mergedInput', () => {
  const req = (over: Partial<RouteRequest>): RouteRequest => ({
    method: 'GET',
    params: {},
    query: new URLSearchParams(),
    body: undefined,
    text: '',
    headers: {},
    ...over,
  });

  it('merges query, body fields and path parameters, the path winning', () => {
    expect(
      mergedInput(req({ params: { ticketId: 't-1' }, query: new URLSearchParams('fields=all&expand[]=owner') })),
    ).toEqual({ fields: 'all', expand: ['owner'], ticketId: 't-1' });
    expect(
      mergedInput(req({ method: 'POST', body: { subject: 'Help', ticketId: 'forged' }, params: { ticketId: 't-1' } })),
    ).toEqual({ subject: 'Help', ticketId: 't-1' });
  });

  it('leaves out a body that is not an object', () => {
    expect(mergedInput(req({ method: 'POST', body: 'plain text', params: { id: 'x' } }))).toEqual({ id: 'x' });
  });
});
