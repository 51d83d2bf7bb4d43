import { describe, expect, it } from "vitest";

import { scriptsEvaluatedBetween } from "../../../scripts/bench/scripts-before-paint";

const evaluate = (url: string, ts: number) => ({ name: "EvaluateScript", ts, args: { data: { url } } });

describe("scriptsEvaluatedBetween", () => {
  it("lists each script whose evaluation started within the window once, the paint's own instant included", () => {
    const events = [
      evaluate("https://app/before-navigation.js", 90),
      evaluate("https://app/runtime.js", 120),
      { name: "ParseHTML", ts: 130, args: { data: { url: "https://app/courses" } } },
      evaluate("https://app/runtime.js", 140),
      evaluate("https://app/framework.js", 200),
      evaluate("https://app/late.js", 201),
      { name: "EvaluateScript", ts: 150, args: { data: {} } },
    ];
    expect(scriptsEvaluatedBetween(events, 100, 200)).toEqual(["https://app/runtime.js", "https://app/framework.js"]);
    expect(scriptsEvaluatedBetween(events, 100, 199)).toEqual(["https://app/runtime.js"]);
  });
});
