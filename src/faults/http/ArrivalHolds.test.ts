import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ArrivalHolds } from './ArrivalHolds.js';

const pristine = { fetch: globalThis.fetch, request: http.request };
afterEach(() => {
  globalThis.fetch = pristine.fetch;
  http.request = pristine.request;
});

const hold = <T>(work: Promise<T>): Promise<T> => work;

describe('ArrivalHolds', () => {
  // A framework may keep an SDK client, and the fetch it captured, from one trial to the next
  // (the Agents SDK's default runner does): its requests must reach the interception installed now.
  it('a fetch captured while a session ran passes requests on to the fetch installed now, once that session has ended', async () => {
    const calls: string[] = [];
    globalThis.fetch = (input) => (calls.push(`first ${String(input)}`), Promise.resolve(new Response('first')));
    const uninstall = new ArrivalHolds(hold).install();
    const captured = globalThis.fetch;
    expect(await (await captured('https://a.test/1')).text()).toBe('first');
    uninstall();
    globalThis.fetch = (input) => (calls.push(`now ${String(input)}`), Promise.resolve(new Response('now')));
    expect(await (await captured('https://a.test/2')).text()).toBe('now');
    expect(calls).toEqual(['first https://a.test/1', 'now https://a.test/2']);
  });

  it('so does a captured node:http request function', () => {
    const calls: string[] = [];
    const uninstall = new ArrivalHolds(hold).install();
    const captured = http.request;
    uninstall();
    http.request = ((url: string) => {
      calls.push(url);
      return { url };
    }) as unknown as typeof http.request;
    expect(captured('http://a.test/3' as never)).toEqual({ url: 'http://a.test/3' });
    expect(calls).toEqual(['http://a.test/3']);
  });
});
