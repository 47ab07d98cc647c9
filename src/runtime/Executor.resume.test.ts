import { describe, expect, it } from 'vitest';
import { History, IdSource, Rng, VirtualClock, eventsOf, type WireRequest } from '../core/index.js';
import { RetryConfigSchema, type RetryConfigInput } from './config.js';
import { Executor } from './Executor.js';
import { ALL_TOOLS, FakeTransport } from './fakeTransport.testkit.js';
import { InMemoryOperationStore } from './idempotency/InMemoryOperationStore.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';

const order = { ref: 'ref-1', sku: 'A', qty: 1 };
const created = { orderId: 'ord-1' };

/** A successor process: a fresh executor on the store an earlier one left behind. */
function successor(
  store: InMemoryOperationStore,
  status: (request: WireRequest) => unknown,
  config: Partial<RetryConfigInput> = {},
) {
  const clock = new VirtualClock(0);
  const history = new History(clock);
  const transport = new FakeTransport(ALL_TOOLS, (request) =>
    request.purpose === 'status' ? status(request) : { orderId: 'ord-2' },
  );
  const ids = new IdSource();
  ids.next('op'); // the dead process already used op-1
  const executor = new Executor({
    transport,
    config: RetryConfigSchema.parse({ name: 'test', ...config }),
    clock,
    rng: new Rng(1),
    history,
    ids,
    startMs: 0,
    store,
  });
  const within = async <T>(body: () => Promise<T>): Promise<T> => {
    const run = await clock.run(body);
    if (run.kind !== 'settled') throw new Error(`did not settle: ${run.kind}`);
    return run.value;
  };
  return { executor, transport, history, within };
}

const left = (extra: Partial<OperationRecord> = {}): OperationRecord => ({
  op: 'op-1',
  call: 'call-1',
  tool: 'create_order',
  input: order,
  idempotencyKey: 'idem-1',
  businessKey: 'ref-1',
  state: 'pending',
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

describe('Executor.resume', () => {
  it('reconciles a record left pending by a dead process, then answers the replayed call from it', async () => {
    const store = new InMemoryOperationStore();
    await store.create(left());
    const { executor, transport, history, within } = successor(store, () => ({ state: 'succeeded', value: created }));
    const records = await within(() => executor.resume({ caller: 'process-2' }));
    expect(records.map((r) => [r.op, r.state, r.result])).toEqual([['op-1', 'succeeded', created]]);
    expect(transport.calls('status').map((r) => [r.tool, r.idempotencyKey, (r.input as { op: string }).op])).toEqual([
      ['create_order', 'idem-1', 'op-1'],
    ]);
    const ops = eventsOf(history.events, 'operation').map((e) => [e.op, e.state]);
    expect(ops).toEqual([
      ['op-1', 'unknown'],
      ['op-1', 'succeeded'],
    ]);

    const replayed = await within(() => executor.call('create_order', { ...order }));
    expect(replayed).toMatchObject({ kind: 'ok', attempts: 0, value: created });
    expect(transport.calls('call')).toEqual([]);
    // Once: a second identical call is a new operation, sent as usual.
    expect(await within(() => executor.call('create_order', order))).toMatchObject({
      kind: 'ok',
      attempts: 1,
      value: { orderId: 'ord-2' },
    });
    expect(transport.calls('call')).toHaveLength(1);
  });

  it('replays a definite failure, and leaves an unanswered record unknown for the caller to resend with its key', async () => {
    const store = new InMemoryOperationStore();
    await store.create(
      left({
        op: 'op-1',
        state: 'failed',
        error: { kind: 'invalid_argument', message: 'qty too large', retryable: false },
      }),
    );
    await store.create(
      left({
        op: 'op-2',
        call: 'call-2',
        input: { ...order, ref: 'ref-2' },
        idempotencyKey: 'idem-2',
        businessKey: 'ref-2',
        state: 'unknown',
      }),
    );
    const { executor, transport, within } = successor(store, () => ({ state: 'not_found' }));
    const records = await within(() => executor.resume());
    expect(records.map((r) => [r.op, r.state])).toEqual([
      ['op-1', 'failed'],
      ['op-2', 'unknown'],
    ]);
    expect(await within(() => executor.call('create_order', order))).toMatchObject({
      kind: 'error',
      attempts: 0,
      error: { error_type: 'invalid_argument' },
    });
    await within(() => executor.call('create_order', { ...order, ref: 'ref-2' }));
    expect(transport.calls('call').map((r) => r.idempotencyKey)).toEqual(['idem-2']);
  });

  it('does not ask when the configuration does not reconcile, and finds nothing in a store that died with its process', async () => {
    const store = new InMemoryOperationStore();
    await store.create(left());
    const quiet = successor(store, () => ({ state: 'succeeded', value: created }), { reconcile: false });
    expect((await quiet.within(() => quiet.executor.resume())).map((r) => r.state)).toEqual(['unknown']);
    expect(quiet.transport.calls('status')).toEqual([]);

    const fresh = successor(new InMemoryOperationStore(), () => ({ state: 'succeeded', value: created }));
    expect(await fresh.within(() => fresh.executor.resume())).toEqual([]);
    expect(await fresh.within(() => fresh.executor.call('create_order', order))).toMatchObject({
      kind: 'ok',
      attempts: 1,
      value: { orderId: 'ord-2' },
    });
  });
});
