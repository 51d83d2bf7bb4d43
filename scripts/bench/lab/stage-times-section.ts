/**
 * Lab section (`npm run bench -- --lab=stage-times`): the data route's own time inside the dashboard's
 * process, one request at a time, before its call to the site and after the answer (./stage-times.ts).
 */
import type { BenchSection } from "../context";
import { round } from "../context";
import { progress } from "../progress";
import { DATA_ROUTE_PATH, directCoursesRequest } from "../sequential";

import { startStageTimes } from "./stage-times";

export const stageTimes: BenchSection = {
  name: "stage-times",
  title: "the data route's own time in the dashboard's process (diagnostics channels)",
  enabled: () => true,
  async run(context) {
    const inspector = await context.inspector();
    const recording = await startStageTimes(inspector, DATA_ROUTE_PATH, new URL(directCoursesRequest(context).url).pathname);
    for (let index = 0; index < context.options.rounds; index += 1) {
      if ((index + 1) % 20 === 0) progress("data route, one request at a time", index + 1, context.options.rounds);
      const response = await fetch(`${context.target.appUrlIPv4}${DATA_ROUTE_PATH}`, { headers: { cookie: context.member.header() } });
      await response.arrayBuffer();
    }
    const stages = await recording.take();
    return {
      summary: [
        `stage times over ${stages.requests} requests, p50: ${round(stages.beforeCallMs, 2)} ms before the call to the site,` +
          ` ${round(stages.afterAnswerMs, 2)} ms after the answer`,
      ],
      results: { ...stages },
    };
  },
};
