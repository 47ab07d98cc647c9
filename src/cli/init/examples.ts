import { fileURLToPath } from 'node:url';

/**
 * Where the worked examples sit in the package (and in the repository): `scenarios/examples/`.
 * Found from this file, not from scenario/library's LIBRARY_DIR: `init`'s flags are defined on
 * every start of the CLI (`--version` too), and importing scenario/library for a path loaded the
 * engine with it (every service, checker and fault module: ~120 modules).
 */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../scenarios/examples', import.meta.url));

/** A worked example `init --example` can write into a project. */
export interface InitExample {
  readonly name: string;
  readonly summary: string;
  /**
   * The folders under `scenarios/examples/` it is made of, written to `faultline/examples/` with
   * the same layout, so the paths between them (`../helpdesk/code/…`) hold in the project too.
   */
  readonly folders: readonly string[];
  /** The packages its own code imports (beyond faultline and its peers), at the versions faultline tests with. */
  readonly packages: readonly string[];
  /** The optional peers its runs load (an `http` agent needs msw). */
  readonly peers: readonly string[];
  /**
   * Its folder holds a `faultline.config.ts` (paths from the project's root) that `init` writes as
   * the project's config, in place of the generated one (its defaults and agents are the example).
   */
  readonly config?: true;
}

export const INIT_EXAMPLES: readonly InitExample[] = [
  {
    name: 'helpdesk',
    summary:
      'a service of your own (defineService) in process and over HTTP, your own fetch tool and agent, under a lost answer',
    folders: ['helpdesk'],
    packages: [],
    peers: ['msw'],
  },
  {
    name: 'sdk-agents',
    summary:
      'one scenario, three agents on the official SDKs (openai, AI SDK, Agents SDK) from one config, ' +
      'and one on the Anthropic SDK, against the helpdesk while its answer is lost',
    folders: ['sdk-agents', 'helpdesk/code'],
    packages: ['openai', 'ai', '@ai-sdk/openai', '@openai/agents', '@anthropic-ai/sdk'],
    peers: ['msw'],
    config: true,
  },
  {
    name: 'local-commands',
    summary:
      'command tools (R19) and the task manager (R20); build-leaks and unknown-as-success fail on purpose, with the evidence',
    folders: ['local-commands'],
    packages: [],
    peers: [],
  },
];

export const INIT_EXAMPLE_NAMES: readonly string[] = INIT_EXAMPLES.map((e) => e.name);

/** Where an example's scenarios land in the project. */
export const exampleTarget = (name: string): string => `faultline/examples/${name}`;
