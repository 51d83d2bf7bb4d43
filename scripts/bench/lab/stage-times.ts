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

/** The recording started by startStageTimes, held in the server until it is taken. */
export interface StageRecording {
  /** The medians recorded so far; stops recording and lets the server forget it. */
  take(): Promise<StageTimes>;
}

/**
 * Starts timing requests to `routePath` that call the site's `sitePath`. The subscribers and their marks
 * are held by the inspector session (Inspector.hold), not put on the server's globals. One request at a
 * time only: the marks of concurrent requests would mix.
 */
export async function startStageTimes(inspector: Inspector, routePath: string, sitePath: string): Promise<StageRecording> {
  const recording = await inspector.hold(`(() => {
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
    return state;
  })()`);
  return {
    async take() {
      try {
        return await recording.call<StageTimes>(`function () {
          const channels = process.getBuiltinModule("node:diagnostics_channel");
          for (const [name, handler] of Object.entries(this.handlers)) channels.unsubscribe(name, handler);
          const median = (values) => {
            const sorted = [...values].sort((a, b) => a - b);
            return sorted[Math.floor(sorted.length / 2)] ?? NaN;
          };
          return { beforeCallMs: median(this.before), afterAnswerMs: median(this.after), requests: this.after.length };
        }`);
      } finally {
        await recording.release();
      }
    },
  };
}
