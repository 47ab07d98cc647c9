import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../core/index.js';
import { CallSubjects } from './CallSubjects.js';
import { resolveUnknowns, type Resolution } from './resolveUnknowns.js';
import { TrialBuilder } from './testing.js';
import { parseSubject, STATUS_TOOL, TrialIndex } from './trialIndex.js';

type OutcomeEvent = EventOf<'outcome'>;

/** The definition, one outcome at a time: the first later event that settles it (what honesty did before the one pass). */
function resolveOne(subjects: CallSubjects, o: OutcomeEvent): Resolution {
  const index = subjects.index;
  const mine = subjects.of(o.call);
  const input = index.inputText(o.call);
  let ambiguous: Resolution | undefined;
  for (const e of index.events) {
    if (e.seq <= o.seq) continue;
    if (
      e.type === 'reconcile' &&
      (e.call === o.call || (o.op !== undefined && e.op === o.op)) &&
      (e.found === 'succeeded' || e.found === 'failed')
    ) {
      const by = `reconcile #${e.seq} found ${e.found}`;
      return e.task === undefined
        ? { kind: 'resolved', seq: e.seq, by }
        : { kind: 'taken_on', seq: e.seq, by: `${by}: a task ${e.task}` };
    }
    if (
      e.type === 'operation' &&
      o.op !== undefined &&
      e.op === o.op &&
      (e.state === 'succeeded' || e.state === 'failed')
    ) {
      return { kind: 'resolved', seq: e.seq, by: `operation ${e.op} became ${e.state} (#${e.seq})` };
    }
    if (e.type !== 'outcome' || e.result !== 'ok' || e.call === o.call) continue;
    if (e.tool === STATUS_TOOL) {
      const query = index.inputText(e.call) ?? '';
      const related =
        o.op !== undefined ? query.includes(o.op) : mine.some((s) => query.includes(parseSubject(s)?.key ?? s));
      if (related) ambiguous ??= { kind: 'ambiguous', seq: e.seq, call: e.call };
      continue;
    }
    const sameSubject = subjects.of(e.call).some((s) => mine.includes(s));
    if (sameSubject || (e.tool === o.tool && input !== undefined && index.inputText(e.call) === input)) {
      const by = `${e.call} (${e.tool}) ended ok (#${e.seq})`;
      return e.task === undefined
        ? { kind: 'resolved', seq: e.seq, by }
        : { kind: 'taken_on', seq: e.seq, by: `${by}: a task ${e.task}` };
    }
  }
  return ambiguous ?? { kind: 'unresolved' };
}

/**
 * One step of a random trial: a call of one of two tools on one of three keys, ending some way; or a status query, a
 * reconcile, an operation record.
 */
const step = fc.oneof(
  fc.record({
    kind: fc.constant('call' as const),
    tool: fc.constantFrom('create_order', 'update_record'),
    ref: fc.constantFrom('a', 'b', 'c'),
    commit: fc.boolean(),
    result: fc.constantFrom('ok', 'unknown', 'error'),
    op: fc.option(fc.constantFrom('op-1', 'op-2', 'op-3'), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('status' as const),
    about: fc.constantFrom('op-1', 'op-2', 'a', 'b', 'zz'),
    ok: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('reconcile' as const),
    call: fc.integer({ min: 1, max: 12 }),
    op: fc.option(fc.constantFrom('op-1', 'op-2', 'op-3'), { nil: undefined }),
    found: fc.constantFrom('succeeded', 'failed', 'pending', 'not_found'),
    task: fc.option(fc.constantFrom('accepted', 'running'), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('operation' as const),
    op: fc.constantFrom('op-1', 'op-2', 'op-3'),
    state: fc.constantFrom('recorded', 'succeeded', 'failed', 'unknown'),
  }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

function trialOf(steps: readonly Step[]): TrialBuilder {
  const b = new TrialBuilder();
  for (const s of steps) {
    switch (s.kind) {
      case 'call': {
        const c = b.call(s.tool, { clientReference: s.ref, amount: 1 });
        c.attempt({
          key: `k-${s.ref}`,
          ...(s.result === 'ok' ? {} : { error: 'timeout' }),
          ...(s.commit ? { commit: { service: 'orders', effect: 'order.created', key: s.ref } } : {}),
        });
        c.outcome(s.result as 'ok' | 'unknown' | 'error', s.op === undefined ? {} : { op: s.op });
        break;
      }
      case 'status': {
        const c = b.call(STATUS_TOOL, { operation_id: s.about }, 'read');
        c.attempt(s.ok ? {} : { error: 'timeout' });
        c.outcome(s.ok ? 'ok' : 'error');
        break;
      }
      case 'reconcile':
        b.add({
          type: 'reconcile',
          call: `call-${s.call}`,
          op: s.op ?? 'op-9',
          found: s.found as 'succeeded',
          ...(s.task !== undefined && { task: s.task }),
        });
        break;
      case 'operation':
        b.add({ type: 'operation', op: s.op, call: 'call-1', tool: 'create_order', state: s.state as 'succeeded' });
        break;
    }
    b.advance(10);
  }
  return b;
}

describe('resolveUnknowns', () => {
  test.prop([fc.array(step, { maxLength: 30 }), fc.boolean()])(
    'settles every unknown outcome as a scan per outcome does',
    (steps, claimed) => {
      const record = trialOf(steps).build();
      const index = TrialIndex.of(record);
      const claims = claimed ? [{ subject: 'orders:a', status: 'unknown' as const }] : [];
      const unknown = index.eventsOf('outcome').filter((o) => o.result === 'unknown' && o.tool !== STATUS_TOOL);
      const got = resolveUnknowns(new CallSubjects(index, claims), unknown);
      const reference = new CallSubjects(index, claims);
      expect(unknown.map((o) => got.get(o))).toEqual(unknown.map((o) => resolveOne(reference, o)));
    },
  );

  it('settles two unknowns at once by one later success on their subject, each with a resolution of its own', () => {
    const b = new TrialBuilder();
    const commit = { service: 'orders', effect: 'order.created', key: 'a' };
    const write = (
      input: object,
      spec: Parameters<ReturnType<TrialBuilder['call']>['attempt']>[0],
      result: 'ok' | 'unknown',
    ): void => {
      const c = b.call('create_order', input);
      c.attempt(spec);
      c.outcome(result);
    };
    write({ clientReference: 'a' }, { error: 'timeout', commit }, 'unknown');
    write({ clientReference: 'a', note: 'again' }, { error: 'timeout' }, 'unknown');
    write({ clientReference: 'a', note: 'third' }, { commit }, 'ok');
    const index = TrialIndex.of(b.build());
    const [first, second, last] = index.eventsOf('outcome');
    const got = resolveUnknowns(new CallSubjects(index, [{ subject: 'orders:a', status: 'unknown' }]), [
      first!,
      second!,
    ]);
    const settled = { kind: 'resolved', seq: last!.seq, by: `call-3 (create_order) ended ok (#${last!.seq})` };
    expect(got.get(first!)).toEqual(settled);
    expect(got.get(second!)).toEqual(settled);
    expect(got.get(second!)).not.toBe(got.get(first!));
  });
});

describe('CallSubjects', () => {
  const subject = fc.constantFrom('orders:a', 'orders:b', 'orders:c', 'jobs:a', 'orders:z', 'no-service', ':a');
  test.prop([fc.array(step, { maxLength: 30 }), fc.array(subject, { maxLength: 8 })])(
    "works out a call's subjects as the ledger, then every claim on its key, say",
    (steps, claimed) => {
      const index = TrialIndex.of(trialOf(steps).build());
      const claims = claimed.map((s) => ({ subject: s, status: 'unknown' as const }));
      const subjects = new CallSubjects(index, claims);
      // The definition: what the call committed, else each claim whose key is the call's business key, once, in claim order.
      const definition = (call: string): string[] => {
        if (index.call(call)?.tool === STATUS_TOOL) return [];
        const committed = [...new Set(index.effectsOfCall(call).map((e) => `${e.service}:${e.key}`))];
        if (committed.length > 0) return committed;
        const key = index.businessKeyOf(call);
        return key === undefined
          ? []
          : [...new Set(claims.filter((c) => parseSubject(c.subject)?.key === key).map((c) => c.subject))];
      };
      for (const c of index.calls) expect(subjects.of(c.call)).toEqual(definition(c.call));
    },
  );

  test.prop([fc.array(step, { maxLength: 30 }), fc.boolean()])(
    "lists a subject's calls as a scan of every call per subject does",
    (steps, claimed) => {
      const index = TrialIndex.of(trialOf(steps).build());
      const claims = claimed ? [{ subject: 'orders:a', status: 'unknown' as const }] : [];
      const subjects = new CallSubjects(index, claims);
      const reference = new CallSubjects(index, claims);
      // The definition: every call, in order, whose subjects hold the subject (what callsOf did per claim).
      const scan = (subject: string): string[] =>
        index.calls.filter((c) => c.tool !== STATUS_TOOL && reference.of(c.call).includes(subject)).map((c) => c.call);
      for (const subject of ['orders:a', 'orders:b', 'orders:c', 'orders:z', 'nothing'])
        expect(subjects.callsOf(subject)).toEqual(scan(subject));
      // A caller's changes to the list it got do not reach the next caller.
      subjects.callsOf('orders:a').push('call-99');
      expect(subjects.callsOf('orders:a')).toEqual(scan('orders:a'));
    },
  );

  it('works a call out only when asked, and lists the calls of a subject in call order', () => {
    const b = new TrialBuilder();
    b.call('create_order', { clientReference: 'a' }).attempt({
      commit: { service: 'orders', effect: 'order.created', key: 'a' },
    });
    b.call('create_order', { clientReference: 'b' }).attempt({ error: 'timeout' });
    b.call(STATUS_TOOL, { operation_id: 'op-1' }, 'read').attempt();
    b.call('create_order', { clientReference: 'a', amount: 2 }).attempt({
      commit: { service: 'orders', effect: 'order.created', key: 'a' },
    });
    const index = TrialIndex.of(b.build());
    const subjects = new CallSubjects(index, [{ subject: 'orders:b', status: 'failed' }]);
    expect(subjects.of('call-1')).toEqual(['orders:a']);
    expect(subjects.of('call-2')).toEqual(['orders:b']);
    expect(subjects.of('call-3')).toEqual([]);
    expect(subjects.of('call-9')).toEqual([]);
    expect(subjects.callsOf('orders:a')).toEqual(['call-1', 'call-4']);
  });
});
