import { beforeAll, expect, it } from "vitest";

import { startLogin } from "@/lib/auth/login";
import { SITE_CALL_TIMEOUT_MS } from "@/lib/site/site-deadline";

import { configureDashboard } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";

const site = setUpFakeSite();

beforeAll(() => {
  configureDashboard(site.url);
});

it(
  "gives up on a slow site within the bounded time and says sign-in is unavailable",
  async () => {
    // A site that takes a minute to answer its discovery document.
    site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({ delayMs: 60_000, json: {} }));
    const started = Date.now();
    const jar = memoryJar();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "site_unavailable" });
    const elapsed = Date.now() - started;
    // It waited for the site up to the limit (not a quick failure of another kind); the test's own
    // timeout below is the upper bound.
    expect(elapsed).toBeGreaterThanOrEqual(SITE_CALL_TIMEOUT_MS - 100);
    expect(jar.cookies.size).toBe(0);
  },
  SITE_CALL_TIMEOUT_MS + 10_000,
);
