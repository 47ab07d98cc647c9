import { describe, expect, it } from 'vitest';
import { gated, type AnswerGate } from './AnswerGate.js';
import type { HttpAnswer } from './HttpAnswer.js';
import type { HttpRoute } from './HttpRoute.js';

const ok: HttpAnswer = { kind: 'respond', status: 200, statusText: 'OK', headers: {}, body: '{}' };
const lost: HttpAnswer = { kind: 'hang', reason: 'partial_write' };
const route = (kind: 'tool' | 'model'): HttpRoute =>
  ({ method: 'POST', path: '/tools/create_order', operation: 'create_order', kind }) as unknown as HttpRoute;

/** A gate that holds every answer it is asked about, and the requests it was asked about. */
function holdingAll(): AnswerGate & { asked: string[] } {
  const asked: string[] = [];
  return { asked, holds: ({ request }) => (asked.push(request), true) };
}

describe('gated: the answer a crash.agent gate holds', () => {
  it('a held tool answer becomes a hang, so it is lost when the killed client leaves', () => {
    expect(gated(holdingAll(), ok, 'http-1', route('tool'))).toMatchObject({ kind: 'hang', reason: /crash\.agent/ });
  });

  it('a model answer is never asked about; no gate, or one that does not hold, leaves the answer', () => {
    const gate = holdingAll();
    expect(gated(gate, ok, 'http-1', route('model'))).toBe(ok);
    expect(gate.asked).toEqual([]);
    expect(gated(undefined, ok, 'http-2', route('tool'))).toBe(ok);
    expect(gated({ holds: () => false }, ok, 'http-3', route('tool'))).toBe(ok);
  });

  it('an answer a fault already lost is still asked about (its effect counts), and stays as the fault lost it', () => {
    const gate = holdingAll();
    expect(gated(gate, lost, 'http-4', route('tool'))).toBe(lost);
    expect(gate.asked).toEqual(['http-4']);
  });
});
