/**
 * Where a site serves its course covers, over real HTTP against the sandbox (its `coverOrigin` and
 * `relativeCoverUrls` knobs): on itself, on an image CDN that SITE_IMAGE_ORIGINS lists, as paths on itself, or on
 * a host the pages' Content Security Policy does not name. The data routes of Courses and the Overview give the
 * browser only covers it may load; of the last kind none, and the operator is told once per host.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { forgetCoverWarningsForTests } from "@/lib/account-api/cover-url";
import { resetConfigForTests } from "@/lib/config";
import type { CoursesPage, Overview } from "@/lib/types/account";
import { type RunningSandbox } from "@/sandbox/server";

import { captureLog } from "../support/captured-log";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

let sandbox: RunningSandbox;
const maya = new RouteBrowser();
/** The sandbox under its other names: "localhost" (listed as the CDN below) and 127.0.0.2 (listed nowhere). */
let asLocalhost: string;
let unlisted: string;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
  asLocalhost = sandbox.url.replace("127.0.0.1", "localhost");
  unlisted = sandbox.url.replace("127.0.0.1", "127.0.0.2");
  process.env.SITE_IMAGE_ORIGINS = asLocalhost;
  resetConfigForTests();
  await signInThroughRoutes(maya, { email: "maya@example.com" });
});
afterAll(async () => {
  delete process.env.SITE_IMAGE_ORIGINS;
  resetConfigForTests();
  await sandbox.close();
});
afterEach(() => {
  sandbox.reset();
  forgetCoverWarningsForTests();
});

async function dataRoute<T>(resource: string): Promise<T> {
  const response = maya.absorb(await accountRoute(maya.request(`/api/account/${resource}`), { params: Promise.resolve({ resource }) }));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Every cover Courses and the Overview give the browser. */
async function coversGiven(): Promise<(string | null)[]> {
  const courses = await dataRoute<CoursesPage>("courses");
  const overview = await dataRoute<Overview>("overview");
  const covers = [...courses.items, ...overview.continueWatching, ...overview.endingSoon].map((course) => course.imageUrl);
  expect(covers.length).toBeGreaterThan(3);
  return covers;
}

const unlistedWarnings = (log: ReturnType<typeof captureLog>) => log.events().filter((event) => event.event === "site_image_unlisted");

describe.each([
  { where: "on the site itself", knobs: () => ({}), from: () => sandbox.url },
  { where: "on the image CDN SITE_IMAGE_ORIGINS lists", knobs: () => ({ coverOrigin: asLocalhost }), from: () => asLocalhost },
  { where: "as paths on the site", knobs: () => ({ relativeCoverUrls: true }), from: () => sandbox.url },
])("covers $where", ({ knobs, from }) => {
  it("reach the browser, each from there, and the log says nothing of them", async () => {
    sandbox.setKnobs(knobs());
    const log = captureLog();
    const covers = await coversGiven();
    expect(covers.every((cover) => cover?.startsWith(`${from()}/covers/`))).toBe(true);
    expect(unlistedWarnings(log)).toEqual([]);
  });
});

describe("covers on a host the pages' policy does not name", () => {
  it("reach the browser as none (the plain cover), and the operator is told once, with the host and the setting", async () => {
    sandbox.setKnobs({ coverOrigin: unlisted });
    const log = captureLog();
    expect(new Set(await coversGiven())).toEqual(new Set([null]));
    expect(new Set(await coversGiven())).toEqual(new Set([null]));
    expect(unlistedWarnings(log)).toEqual([expect.objectContaining({ level: "warn", origin: unlisted, setting: "SITE_IMAGE_ORIGINS" })]);
    // Once the operator lists it, the covers are back.
    process.env.SITE_IMAGE_ORIGINS = `${asLocalhost},${unlisted}`;
    resetConfigForTests();
    try {
      expect((await coversGiven()).every((cover) => cover?.startsWith(`${unlisted}/covers/`))).toBe(true);
    } finally {
      process.env.SITE_IMAGE_ORIGINS = asLocalhost;
      resetConfigForTests();
    }
  });
});
