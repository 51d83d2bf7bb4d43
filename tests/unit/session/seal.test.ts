import { randomBytes } from "node:crypto";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { resetConfigForTests } from "@/lib/config";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";

import { configureDashboard } from "../../support/env";

beforeEach(() => {
  configureDashboard("http://127.0.0.1:4000", { SESSION_SECRET: randomBytes(32).toString("base64url") });
  resetConfigForTests();
});
afterEach(() => vi.useRealTimers());

describe("sealed values (iron-session's format, with the session secret)", () => {
  it("expire at the time sealed into them, with iron's minute of clock skew: past it, they open to nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const sealed = await sealWithSessionSecret({ purpose: "test" }, 60);
    const sealedAt = Date.now();
    vi.setSystemTime(sealedAt + 119_000);
    expect(await openSessionSeal(sealed)).toEqual({ purpose: "test" });
    vi.setSystemTime(sealedAt + 121_000);
    expect(await openSessionSeal(sealed)).toEqual({});
  });

  it("sealed with no time to live, last until whatever stores them lets them go", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const sealed = await sealWithSessionSecret({ purpose: "test" }, 0);
    vi.setSystemTime(Date.now() + 10 * 365 * 24 * 3_600_000);
    expect(await openSessionSeal(sealed)).toEqual({ purpose: "test" });
  });

  it("open to nothing when changed or sealed with another secret", async () => {
    const sealed = await sealWithSessionSecret({ purpose: "test" }, 60);
    const changed = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(await openSessionSeal(changed)).toEqual({});
    configureDashboard("http://127.0.0.1:4000", { SESSION_SECRET: randomBytes(32).toString("base64url") });
    resetConfigForTests();
    expect(await openSessionSeal(sealed)).toEqual({});
  });
});
