import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { openPageCursor, sealPageCursor } from "@/lib/account-api/page-cursor";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "@/lib/session/session";

import { configureDashboard } from "../../support/env";

beforeAll(() => configureDashboard("https://school.example"));
afterEach(() => vi.useRealTimers());

const BINDING = { page: "orders", member: "member-1" };

describe("a page cursor handed to the browser", () => {
  it("opens to the site's cursor for its list and member, for as long as a sign-in can last", async () => {
    const now = Date.now();
    const cursor = await sealPageCursor("site-cursor-1", BINDING);
    expect(cursor).not.toContain("site-cursor-1");
    vi.useFakeTimers({ toFake: ["Date"], now: now + SESSION_ABSOLUTE_LIFETIME_MS - 60_000 });
    await expect(openPageCursor(cursor, BINDING)).resolves.toBe("site-cursor-1");
  });

  it("is refused once no sign-in it was handed out in can still last (plus iron's minute for clocks that disagree)", async () => {
    const now = Date.now();
    const cursor = await sealPageCursor("site-cursor-1", BINDING);
    vi.useFakeTimers({ toFake: ["Date"], now: now + SESSION_ABSOLUTE_LIFETIME_MS + 61_000 });
    await expect(openPageCursor(cursor, BINDING)).rejects.toMatchObject({ code: "invalid_cursor" });
  });
});
