/**
 * The pages get a course's cover only from a host their Content Security Policy lets images come from; a
 * cover on any other host is the plain cover from the first paint, and the operator is told once per host.
 */
import { afterEach, describe, expect, it } from "vitest";

import { coverSourcesOf, coverUrl, forgetCoverWarningsForTests } from "@/lib/account-api/cover-url";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/http/security-headers";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";

const SITE = "https://school.example.com";
const CDN = "https://cdn.school.example";

const onHttps = coverSourcesOf({ appUrl: "https://dashboard.example.com", siteUrl: SITE, siteImageOrigins: [CDN], secureCookies: true });
const onHttp = coverSourcesOf({
  appUrl: "http://localhost:3000",
  siteUrl: "http://127.0.0.1:4000",
  siteImageOrigins: [],
  secureCookies: false,
});

const unlistedWarnings = (log: ReturnType<typeof captureLog>) => log.events().filter((event) => event.event === "site_image_unlisted");

afterEach(() => {
  forgetCoverWarningsForTests();
  delete process.env.SITE_IMAGE_ORIGINS;
  resetConfigForTests();
});

describe("a course's cover", () => {
  it("is kept from the site, a path on the site, a listed CDN and the dashboard itself", () => {
    const log = captureLog();
    expect(coverUrl(`${SITE}/covers/a.png`, SITE, onHttps)).toBe(`${SITE}/covers/a.png`);
    expect(coverUrl("/uploads/a.png", SITE, onHttps)).toBe(`${SITE}/uploads/a.png`);
    expect(coverUrl("//cdn.school.example/a.png", SITE, onHttps)).toBe(`${CDN}/a.png`);
    expect(coverUrl("https://dashboard.example.com/a.png", SITE, onHttps)).toBe("https://dashboard.example.com/a.png");
    expect(unlistedWarnings(log)).toEqual([]);
  });

  it("from a host the policy does not name is none, and the operator is told once per host, naming SITE_IMAGE_ORIGINS", () => {
    const log = captureLog();
    expect(coverUrl("https://images.example.net/a.png", SITE, onHttps)).toBeNull();
    expect(coverUrl("https://images.example.net/b.png", SITE, onHttps)).toBeNull();
    // Another host of the same site, and the listed CDN on another port, are other origins to the browser too.
    expect(coverUrl("https://media.school.example.com/a.png", SITE, onHttps)).toBeNull();
    expect(coverUrl("https://cdn.school.example:8443/a.png", SITE, onHttps)).toBeNull();
    expect(unlistedWarnings(log)).toEqual([
      expect.objectContaining({ level: "warn", origin: "https://images.example.net", setting: "SITE_IMAGE_ORIGINS" }),
      expect.objectContaining({ origin: "https://media.school.example.com" }),
      expect.objectContaining({ origin: "https://cdn.school.example:8443" }),
    ]);
  });

  it("over http is kept where the pages upgrade insecure requests, and an https cover is kept from a host listed as http", () => {
    captureLog();
    // An https dashboard's policy has the browser ask for it over https, where the site's origin allows it.
    expect(coverUrl("http://school.example.com/a.png", SITE, onHttps)).toBe("http://school.example.com/a.png");
    // Without the upgrade (an http dashboard), an http cover does not match an https source.
    const httpDashboard = coverSourcesOf({ appUrl: "http://localhost:3000", siteUrl: SITE, siteImageOrigins: [], secureCookies: false });
    expect(coverUrl("http://school.example.com/a.png", SITE, httpDashboard)).toBeNull();
    // A source written http also allows its https form (CSP Level 3, section 6.7.2.8), on the same port.
    expect(coverUrl("https://127.0.0.1:4000/a.png", "http://127.0.0.1:4000", onHttp)).toBe("https://127.0.0.1:4000/a.png");
    expect(coverUrl("http://127.0.0.1:4001/a.png", "http://127.0.0.1:4000", onHttp)).toBeNull();
  });

  it("is never anything but http(s)", () => {
    captureLog();
    expect(coverUrl("javascript:alert(1)", SITE, onHttps)).toBeNull();
    expect(coverUrl("data:image/png;base64,AAAA", SITE, onHttps)).toBeNull();
    expect(coverUrl(null, SITE, onHttps)).toBeNull();
  });

  it("is judged by the same list of origins the pages' img-src is written from", () => {
    configureDashboard(SITE);
    process.env.SITE_IMAGE_ORIGINS = `${CDN},https://img.example.org`;
    resetConfigForTests();
    const imageSources = /img-src ([^;]+)/.exec(contentSecurityPolicy("n", "/courses", false))![1]!.split(" ");
    expect(imageSources).toEqual(["'self'", "data:", "blob:", SITE, CDN, "https://img.example.org"]);
    const sources = coverSourcesOf(getConfig());
    captureLog();
    for (const origin of imageSources.filter((source) => source.startsWith("https://"))) {
      expect(coverUrl(`${origin}/a.png`, SITE, sources)).toBe(`${origin}/a.png`);
    }
    expect(coverUrl("https://img2.example.org/a.png", SITE, sources)).toBeNull();
  });
});
