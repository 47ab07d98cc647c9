import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Cassette } from '../../model/api/Cassette.js';

// Scenario names are slugs; configuration names are free text.
const fileSafe = (name: string): string => name.replace(/[^A-Za-z0-9_.-]+/g, '_');

/**
 * Writes live trials' recordings (their secrets already sealed) into a run's folder for them
 * (`LiveRun.recordDir`); each write returns its file's path from where the run was started.
 */
export const recordingFile =
  (dir: string) =>
  (recording: Cassette): string => {
    const t = recording.trial!;
    const file = join(dir, fileSafe(t.scenario), fileSafe(t.config), `trial-${t.trialIndex}.cassette.json`);
    // Written synchronously: fs/promises' writeFile settles with its file's close still pending, and
    // a trial on a worker that ends with it pending has left a handle open, and retires its worker
    // (each live trial then paid for starting a worker).
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(recording.toJSON(), null, 2)}\n`);
    return file;
  };
