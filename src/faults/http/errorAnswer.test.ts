import { describe, expect, it } from 'vitest';
import { HttpError, systemError } from '../../core/index.js';
import { serverError } from '../faultError.js';
import { errorAnswer } from './errorAnswer.js';
import { onTheWire, reply, respond } from './HttpAnswer.js';
import type { ErrorMapper, RouteRequest } from './HttpRoute.js';

const req: RouteRequest = {
  method: 'POST',
  params: {},
  query: new URLSearchParams(),
  body: undefined,
  text: '',
  headers: {},
};

/** A business error that is not an HttpError, as a user's own API declares one. */
class CardError extends Error {
  readonly status = 402;
  constructor(readonly code: string) {
    super(`card ${code}`);
  }
}

const stripeShape: ErrorMapper = (e) =>
  e instanceof CardError ? { body: { error: { type: 'card_error', code: e.code, message: e.message } } } : undefined;

describe('errorAnswer', () => {
  it('without a mapper: an HttpError is its status, headers and body; anything else a 500', () => {
    expect(
      errorAnswer(new HttpError(409, 'taken', { error: { code: 'taken' } }, { 'Retry-After': '1' }), req, []),
    ).toMatchObject({
      status: 409,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
      body: '{"error":{"code":"taken"}}',
    });
    expect(errorAnswer(new CardError('card_declined'), req, [undefined])).toMatchObject({
      status: 500,
      body: JSON.stringify({ error: { type: 'server_error', message: 'card card_declined' } }),
    });
    expect(errorAnswer(systemError('ECONNRESET', 'socket hang up'), req, [])).toEqual({
      kind: 'network',
      code: 'ECONNRESET',
      message: 'socket hang up',
    });
  });

  it('a mapper renders a business error: the status from the error, the body and headers its own', () => {
    const answer = errorAnswer(new CardError('card_declined'), req, [
      (e) =>
        e instanceof CardError ? { headers: { 'Request-Id': 'req_1' }, body: { error: { code: e.code } } } : undefined,
    ]);
    expect(answer).toMatchObject({
      kind: 'respond',
      status: 402,
      headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      body: '{"error":{"code":"card_declined"}}',
    });
  });

  it('tries mappers in order, skipping those that leave the error alone; a mapper may answer with reply()', () => {
    const routeOwn: ErrorMapper = (e) => (e instanceof HttpError && e.status === 404 ? reply(410, 'gone') : undefined);
    expect(errorAnswer(new HttpError(404, 'nope'), req, [routeOwn, stripeShape])).toMatchObject({
      status: 410,
      body: 'gone',
    });
    expect(errorAnswer(new CardError('expired_card'), req, [routeOwn, stripeShape])).toMatchObject({
      status: 402,
      body: expect.stringContaining('"type":"card_error"') as unknown,
    });
    // Left alone by both: the default.
    expect(
      errorAnswer(new HttpError(400, 'bad', { error: { type: 'invalid_request_error' } }), req, [
        routeOwn,
        stripeShape,
      ]),
    ).toMatchObject({ status: 400, body: '{"error":{"type":"invalid_request_error"}}' });
  });

  it('keeps an HttpError’s own body and headers for the parts a mapper leaves out; a plain error keeps its message', () => {
    const statusOnly: ErrorMapper = () => ({ status: 503, headers: { 'x-should-retry': 'true' } });
    expect(
      errorAnswer(new HttpError(500, 'x', { error: { code: 'db' } }, { 'retry-after': '2' }), req, [statusOnly]),
    ).toMatchObject({
      status: 503,
      headers: { 'retry-after': '2', 'x-should-retry': 'true' },
      body: '{"error":{"code":"db"}}',
    });
    expect(errorAnswer(new Error('boom'), req, [statusOnly])).toMatchObject({
      status: 503,
      body: '{"error":{"message":"boom"}}',
    });
  });

  it('never hands an error a fault made to a mapper: the fault’s answer goes out, replayed or not', () => {
    const everything: ErrorMapper = () => ({ status: 418, body: 'mapped' });
    const failure = serverError({ kind: 'server_error', headers: { 'stripe-should-retry': 'false' } });
    expect(errorAnswer(failure, req, [everything])).toMatchObject({
      status: 500,
      headers: { 'stripe-should-retry': 'false' },
    });
    expect(errorAnswer(new HttpError(500, 'the service’s own'), req, [everything])).toMatchObject({
      status: 418,
      body: 'mapped',
    });
  });

  it('a mapper that throws, or names a status no answer can have, is a crash: a 500 saying why', () => {
    expect(
      errorAnswer(new CardError('x'), req, [
        () => {
          throw new Error('mapper bug');
        },
      ]),
    ).toMatchObject({ status: 500, body: expect.stringContaining('mapper bug') as unknown });
    expect(errorAnswer(new CardError('x'), req, [() => ({ status: 42 })])).toMatchObject({
      status: 500,
      body: expect.stringContaining('integer from 200 to 599, not 42') as unknown,
    });
  });
});

describe('reply and the answer on the wire', () => {
  it('reply: any status, a JSON or text body or none, headers lower-cased over the content type', () => {
    expect(reply(402, { error: { code: 'card_declined' } }, { 'Request-Id': 'r1' })).toEqual({
      kind: 'respond',
      status: 402,
      statusText: 'Payment Required',
      headers: { 'content-type': 'application/json', 'request-id': 'r1' },
      body: '{"error":{"code":"card_declined"}}',
    });
    expect(reply(200, 'a,b', { 'Content-Type': 'text/csv' })).toMatchObject({
      headers: { 'content-type': 'text/csv' },
      body: 'a,b',
    });
    expect(reply(204)).toMatchObject({ status: 204, headers: {}, body: '' });
    expect(() => reply(99)).toThrow(RangeError);
  });

  it('a HEAD answer, a 204 and a 304 carry no body; other answers go as they are', () => {
    expect(onTheWire(respond(404, { error: 'x' }), 'head')).toMatchObject({
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(onTheWire(respond(204, { ignored: true }), 'DELETE')).toMatchObject({ body: '' });
    expect(onTheWire(respond(304, 'x'), 'GET')).toMatchObject({ body: '' });
    expect(onTheWire(respond(200, { a: 1 }), 'GET')).toMatchObject({ body: '{"a":1}' });
    expect(onTheWire({ kind: 'hang', reason: 'r' }, 'HEAD')).toEqual({ kind: 'hang', reason: 'r' });
  });
});
