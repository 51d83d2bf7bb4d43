import { describe, expect, it } from "vitest";

import { scriptsCountedForLcp } from "../../../scripts/bench/scripts-before-paint";

// Trace microseconds: the navigation starts at 1,000,000 and the observed LCP is 150 ms later.
const ORIGIN = 1_000_000;
const LCP = ORIGIN + 150_000;
const MAIN = { pid: 1, tid: 7 };

const task = (startMs: number, durationMs: number) => ({ name: "RunTask", ts: ORIGIN + startMs * 1000, dur: durationMs * 1000, ...MAIN });
const evaluate = (url: string, atMs: number) => ({ name: "EvaluateScript", ts: ORIGIN + atMs * 1000, args: { data: { url } }, ...MAIN });

describe("scriptsCountedForLcp (Lantern's rule for the LCP estimate's scripts)", () => {
  const scripts = [
    { url: "https://app/ran-before.js", networkEndMs: 100 },
    { url: "https://app/long-after.js", networkEndMs: 110 },
    { url: "https://app/short-after.js", networkEndMs: 120 },
    { url: "https://app/never-ran.js", networkEndMs: 130 },
    { url: "https://app/arrived-after.js", networkEndMs: 151 },
    { url: "https://app/at-the-paint.js", networkEndMs: 150 },
  ];
  const events = [
    task(105, 20),
    evaluate("https://app/ran-before.js", 106),
    // A framework chunk evaluated after the paint in a long task: Lantern sees it ran after, and leaves it out.
    task(160, 70),
    evaluate("https://app/long-after.js", 161),
    // A short task after the paint is pruned from Lantern's graph: the script counts as if it had blocked.
    task(240, 9.9),
    evaluate("https://app/short-after.js", 241),
    task(260, 30),
    evaluate("https://app/at-the-paint.js", 261),
    // Another thread's task at the same time is not the evaluation's.
    { name: "RunTask", ts: ORIGIN + 240_000, dur: 50_000, pid: 1, tid: 9 },
  ];

  it("counts what ended by the paint, except a script whose first evaluation was a long task after it", () => {
    expect(scriptsCountedForLcp(events, scripts, ORIGIN, LCP)).toEqual([
      "https://app/ran-before.js",
      "https://app/short-after.js",
      "https://app/never-ran.js",
    ]);
  });

  it("takes a script's first evaluation, and a task of exactly 10 ms as long", () => {
    const evaluatedTwice = [...events, task(130, 5), evaluate("https://app/long-after.js", 131)];
    expect(scriptsCountedForLcp(evaluatedTwice, scripts, ORIGIN, LCP)).toContain("https://app/long-after.js");
    const tenMs = [task(240, 10), evaluate("https://app/short-after.js", 241)];
    expect(scriptsCountedForLcp(tenMs, [scripts[2]!], ORIGIN, LCP)).toEqual([]);
  });
});
