/**
 * The data route's own time inside the dashboard's process, one request at a time: from the moment
 * Node.js has parsed the member's request until its call to the site is written, and from the moment
 * the site's answer is read until the member's answer is written. Node's diagnostics channels
 * (`http.server.request.start`, `http.client.request.start`, `http.client.response.finish`,
 * `http.server.response.finish`) mark those moments; a subscriber is installed in the server through
 * the inspector, so nothing in the app knows about it. Unlike the latencies the load generator sees,
 * these leave out the load generator, the site and the hops between processes.
 */
import type { Inspector } from "../dashboard-process";

export interface StageTimes {
  /** Median ms from the request parsed to the site's request written. */
  beforeCallMs: number;
  /** Median ms from the site's answer read to the member's answer written. */
  afterAnswerMs: number;
  requests: number;
}

const STATE = 'Symbol.for("companion-dashboard.bench.stage-times")';

/** Stops recording and forgets the state (in the server, through the inspector): nothing of it stays behind for later sections. */
const STOP = `(() => {
  const state = globalThis[${STATE}];
  if (!state) return;
  const channels = process.getBuiltinModule("node:diagnostics_channel");
  for (const [name, handler] of Object.entries(state.handlers)) channels.unsubscribe(name, handler);
  delete globalThis[${STATE}];
})()`;

/** Starts timing requests to `routePath` that call the site's `sitePath` (forgetting any earlier recording). */
export async function startStageTimes(inspector: Inspector, routePath: string, sitePath: string): Promise<void> {
  const expression = `(() => {
    ${STOP};
    const channels = process.getBuiltinModule("node:diagnostics_channel");
    const state = { before: [], after: [], current: undefined, handlers: {} };
    state.handlers["http.server.request.start"] = ({ request }) => {
      if (request.url === ${JSON.stringify(routePath)}) state.current = { started: performance.now(), answered: undefined };
    };
    state.handlers["http.client.request.start"] = ({ request }) => {
      const current = state.current;
      if (current && request.path === ${JSON.stringify(sitePath)})
        request.once("finish", () => state.before.push(performance.now() - current.started));
    };
    state.handlers["http.client.response.finish"] = ({ request }) => {
      if (state.current && request.path === ${JSON.stringify(sitePath)}) state.current.answered = performance.now();
    };
    state.handlers["http.server.response.finish"] = ({ request }) => {
      const current = state.current;
      if (!current || request.url !== ${JSON.stringify(routePath)}) return;
      state.current = undefined;
      if (current.answered !== undefined) state.after.push(performance.now() - current.answered);
    };
    for (const [name, handler] of Object.entries(state.handlers)) channels.subscribe(name, handler);
    globalThis[${STATE}] = state;
  })()`;
  await evaluate<undefined>(inspector, expression);
}

/**
 * The medians recorded since startStageTimes, which stops recording. One request at a time only: the
 * marks of concurrent requests would mix.
 */
export async function takeStageTimes(inspector: Inspector): Promise<StageTimes> {
  const expression = `(() => {
    const { before, after } = globalThis[${STATE}];
    const median = (values) => { const sorted = [...values].sort((a, b) => a - b); return sorted[Math.floor(sorted.length / 2)] ?? NaN; };
    const times = { beforeCallMs: median(before), afterAnswerMs: median(after), requests: after.length };
    ${STOP};
    return times;
  })()`;
  return evaluate<StageTimes>(inspector, expression);
}

async function evaluate<T>(inspector: Inspector, expression: string): Promise<T> {
  const { result, exceptionDetails } = await inspector.send<{ result: { value: T }; exceptionDetails?: { text: string } }>(
    "Runtime.evaluate",
    { expression, returnByValue: true },
  );
  if (exceptionDetails) throw new Error(`timing the data route's stages failed in the dashboard: ${exceptionDetails.text}`);
  return result.value;
}
