import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../scenario/library.js';
import { servedScenario } from './servedScenario.js';

// A world to serve and nothing else: under serve and mcp-serve the client is the agent.
const AGENTLESS = `name: no-agent
services: [orders]
goal:
  state: {}
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'served-scenario-'));
  await writeFile(join(dir, 'world.yaml'), AGENTLESS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('servedScenario', () => {
  it('serves a scenario without an agent block (its agent is never started), which run still refuses', async () => {
    const scenario = await servedScenario(join(dir, 'world.yaml'), undefined, 'serve');
    expect(scenario.name).toBe('no-agent');
    await expect(loadScenarios([join(dir, 'world.yaml')])).rejects.toThrow(/world\.yaml.*agent/s);
  });
});
