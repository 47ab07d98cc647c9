import { defineConfig } from 'faultline';

// `faultline init --example sdk-agents` writes this file as the project's faultline.config.ts.
// One copy of each scenario runs once per agent below; every cell is labelled by the agent.
export default defineConfig({
  scenarios: ['faultline/examples/sdk-agents/*.yaml'],
  k: 4,
  seed: 1,
  outDir: 'reports/faultline',
  gates: ['pass^4>=1', 'duplicates==0', 'budget_violations==0'],
  defaults: {
    services: ['./faultline/examples/helpdesk/code/helpdesk.service.ts'],
    // The helpdesk documents four attempts per call.
    budget: { maxAttemptsPerCall: 4 },
  },
  agents: [
    { name: 'openai', module: './faultline/examples/sdk-agents/code/openaiAgent.ts' },
    { name: 'ai-sdk', module: './faultline/examples/sdk-agents/code/aiSdkAgent.ts' },
    { name: 'agents-sdk', module: './faultline/examples/sdk-agents/code/agentsSdkAgent.ts' },
  ],
});
