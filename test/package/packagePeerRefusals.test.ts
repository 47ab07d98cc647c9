/**
 * The package from a user's side, part 4 of 7 (see ./packageTest.ts): in a project with no
 * optional peer installed, where `faultline init` has run, every command that runs trials
 * refuses a run that needs a peer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileProject, initedBareProject, peerVersion, SLOW, writeHttpScenarios } from './packageTest.js';

const project = fileProject(initedBareProject);

describe(
  'installed with no optional peer: every command that runs trials refuses a run that needs one, before the first trial',
  SLOW,
  () => {
    beforeAll(async () => {
      await writeHttpScenarios(project);
    });

    // Each command meets one of the two peers, and each peer at least two commands: every
    // (command, peer) pair would be ten installed-CLI runs (each loads the project's TypeScript
    // config) for one peer check, shared by all commands.
    const COMMANDS: readonly { readonly args: readonly string[]; readonly peer: 'msw' | 'nock' }[] = [
      { args: ['run'], peer: 'msw' },
      { args: ['compare'], peer: 'nock' },
      { args: ['explore', '--runs', '2'], peer: 'msw' },
      { args: ['sweep', '--lambda', '0', '--k', '1'], peer: 'nock' },
      { args: ['replay'], peer: 'msw' },
    ];

    for (const { args: command, peer } of COMMANDS) {
      it(`${command[0]}: an http agent intercepted by ${peer}: exit 2 naming the scenario, the peer and the install command`, async () => {
        const file = `peers/via-${peer}.yaml`;
        // No --config: an http agent retries in its own code, and a configuration for it is refused before the peer check.
        const r = await project.bin(['faultline', command[0]!, file, ...command.slice(1)]);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toContain(
          `scenario "${file.slice('peers/'.length, -'.yaml'.length)}" (an http agent, intercepted by ${peer}`,
        );
        expect(r.stderr).toContain(`needs ${peer}`);
        expect(r.stderr).toContain(`install with: npm i -D -E ${peer}@${await peerVersion(peer)}`);
        expect(r.stderr).not.toContain('faultline crashed');
        expect(r.stdout).not.toMatch(/trial 0|plans?, none failed/);
      });
    }

    it('a configuration on cockatiel or p-retry: exit 2 naming the configuration and the install command', async () => {
      // Each configuration on at least one command, each command once (one check serves them all).
      const runs = [
        ['cockatiel-decorrelated', 'cockatiel', ['run', '--k', '1']],
        ['p-retry-randomized', 'p-retry', ['replay']],
        ['cockatiel-decorrelated', 'cockatiel', ['explore', '--runs', '2']],
      ] as const;
      for (const [config, peer, command] of runs) {
        const r = await project.bin([
          'faultline',
          command[0]!,
          'read-timeout-retry',
          ...command.slice(1),
          '--config',
          config,
        ]);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toContain(`configuration "${config}" (kind: ${peer}) needs ${peer}`);
        expect(r.stderr).toContain(`install with: npm i -D -E ${peer}@${await peerVersion(peer)}`);
      }
    });
  },
);
