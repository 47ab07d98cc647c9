import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { realSleep } from '../../core/index.js';
import { TreeSampler, type ChildrenSource } from './TreeSampler.js';

/** A command whose env-cleared child puts a `sleep` in a session of its own, waits a little, and exits: the sleep is orphaned. */
const orphaning = (mark: string): string => `env -i sh -c 'setsid sleep ${mark} >/dev/null 2>&1 & sleep 0.3'`;

describe.each<ChildrenSource>(['files', 'scan'])('TreeSampler (children from %s)', (children) => {
  it('keeps a descendant seen while the tree ran, after it cleared its environment, left its session and was orphaned', async () => {
    const sampler = new TreeSampler({ periodMs: 10, children });
    const mark = children === 'files' ? '17.3201' : '17.3202';
    const child = spawn('sh', ['-c', orphaning(mark)], { detached: true, stdio: 'ignore' });
    const watch = sampler.watch(child.pid!);
    expect(sampler.watching).toBe(1);
    await once(child, 'exit');
    const survivors = watch.survivors();
    try {
      // The root and the middle process are gone; the sleep lives on, in a group that is not the command's.
      expect(survivors.map((p) => p.comm)).toEqual(['sleep']);
      expect(survivors[0]!.pgrp).not.toBe(child.pid);
      expect(survivors[0]!.start).toMatch(/^\d+$/);
    } finally {
      for (const p of survivors) process.kill(p.pid, 'SIGKILL');
    }
    await realSleep(50);
    // Dead members are dropped, and a tree with none alive is no longer walked.
    expect(watch.survivors()).toEqual([]);
    expect(sampler.watching).toBe(0);
    watch.close();
  });
});

describe('TreeSampler', () => {
  it('follows nothing for a process already gone, and stops walking once every tree is closed', async () => {
    const sampler = new TreeSampler({ periodMs: 10 });
    const child = spawn('sh', ['-c', 'exit 0'], { stdio: 'ignore' });
    await once(child, 'exit');
    await realSleep(20);
    const watch = sampler.watch(child.pid!);
    expect(sampler.watching).toBe(0);
    expect(watch.survivors()).toEqual([]);
    const living = spawn('sleep', ['5'], { stdio: 'ignore' });
    const other = sampler.watch(living.pid!);
    expect(sampler.watching).toBe(1);
    expect(other.survivors().map((p) => p.comm)).toEqual(['sleep']);
    other.close();
    expect(sampler.watching).toBe(0);
    living.kill('SIGKILL');
  });
});
