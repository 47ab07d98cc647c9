// An agent on LangGraph.js, as LangGraph's docs build one: a graph of a model node (ChatOpenAI on
// the scenario's stand-in model, OPENAI_BASE_URL) and a tool node (ToolNode over the orders
// service's tools), compiled with a Postgres checkpointer (PostgresSaver, DATABASE_URL) that
// outlives the process. One thread per task and trial. On FAULTLINE_RESTART=1 it resumes the
// thread from its last checkpoint, as LangGraph's docs say: `invoke(null, { thread_id })`.
// Judged as it is, with no idempotency key and no status query of its own (docs/scenarios.md,
// "A durable framework: LangGraph.js").
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { ChatOpenAI } from '@langchain/openai';
import { writeFileSync } from 'node:fs';
import { z } from 'zod';

const env = process.env;

/** The orders service's RPC route: POST $FAULTLINE_ORDERS_URL/tools/<tool>. */
async function call(name, input) {
  const res = await fetch(`${env.FAULTLINE_ORDERS_URL}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status} ${text}`);
  return text;
}

const tools = [
  tool((input) => call('create_order', input), {
    name: 'create_order',
    description: 'Place a purchase order.',
    schema: z.object({
      clientReference: z.string(),
      item: z.string(),
      quantity: z.number().int(),
      amountCents: z.number().int(),
    }),
  }),
  tool((input) => call('find_order_by_reference', input), {
    name: 'find_order_by_reference',
    description: 'Find the orders placed with a client reference.',
    schema: z.object({ clientReference: z.string() }),
  }),
];

const model = new ChatOpenAI({
  model: 'gpt-4o-mini',
  apiKey: env.OPENAI_API_KEY,
  configuration: { baseURL: env.OPENAI_BASE_URL },
}).bindTools(tools);

const graph = new StateGraph(MessagesAnnotation)
  .addNode('model', async (state) => ({ messages: [await model.invoke(state.messages)] }))
  .addNode('tools', new ToolNode(tools))
  .addEdge(START, 'model')
  .addConditionalEdges('model', toolsCondition, ['tools', END])
  .addEdge('tools', 'model');

const checkpointer = PostgresSaver.fromConnString(env.DATABASE_URL);
await checkpointer.setup();
const app = graph.compile({ checkpointer });

// The thread of this task in this trial: the same across a restart, another in the next trial.
const threadId = `${env.FAULTLINE_TASK} (seed ${env.FAULTLINE_SEED}, trial ${env.FAULTLINE_TRIAL})`;
// LangGraph's default durability is "async" (a step's checkpoint is written while the next step
// runs); LANGGRAPH_DURABILITY=sync waits for it before the next step starts.
const durability = env.LANGGRAPH_DURABILITY ?? 'async';
const config = { configurable: { thread_id: threadId }, recursionLimit: 20, durability };
const restarted = env.FAULTLINE_RESTART === '1';
let state;
try {
  if (restarted) {
    state = await app.invoke(null, config);
  } else {
    // A first start begins the thread afresh (a rerun of the same seed finds the last run's there).
    await checkpointer.deleteThread(threadId);
    state = await app.invoke({ messages: [new HumanMessage(env.FAULTLINE_TASK)] }, config);
  }
} finally {
  await checkpointer.end();
}

// What it claims: each order a create_order answer confirmed.
const claims = state.messages
  .filter((m) => m instanceof ToolMessage && m.name === 'create_order' && m.status !== 'error')
  .map((m) => ({ subject: `orders:${JSON.parse(m.content).clientReference}`, status: 'succeeded' }));
const last = state.messages.at(-1);
writeFileSync(
  env.FAULTLINE_RESULT,
  JSON.stringify({ outcome: 'completed', message: String(last?.content ?? ''), claims }),
);
