/**
 * `npm run bench`: the dashboard's speed and size figures, as ratios measured in one run (machines are
 * shared and noisy, so nothing here is asserted by a timed test). DESIGN.md section 9: the sandbox answers
 * with 20 ms of added latency, as a real site tens of milliseconds away would, and the two sides of each
 * latency ratio are interleaved so machine drift cancels.
 *
 *  (a) median latency of GET /api/account/courses (the BFF data route) divided by the same GraphQL
 *      operation sent straight to the site with the same member's token; target at most 1.10;
 *  (b) JavaScript shipped to the Overview page (gzip) divided by that of an empty page of the same app
 *      (the 404 page: the root layout and nothing else); target at most 1.3;
 *  (c) requests to the site per page view in a real browser: exactly 1.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

import * as oauth from "oauth4webapi";
import { chromium } from "@playwright/test";

import { COURSES_DOCUMENT, coursesVariables } from "../lib/account/courses";
import { SEEDED_DASHBOARD_CLIENT } from "../sandbox/seed";
import { authorizeWithoutBrowser, postSandboxControl } from "../sandbox/testing";

import { measureSharedStateOverhead } from "./bench/shared-state";

const root = path.resolve(import.meta.dirname, "..");
const APP_URL = "http://localhost:3200";
const SITE_URL = "http://127.0.0.1:4200";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = 5;

class Cookies {
  private readonly values = new Map<string, string>();
  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0\b/i.test(line)) this.values.delete(pair.slice(0, index));
      else this.values.set(pair.slice(0, index), value);
    }
  }
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  list(): { name: string; value: string }[] {
    return [...this.values].map(([name, value]) => ({ name, value }));
  }
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up in time`);
}

/** Signs in through the dashboard's own routes, as a browser would; returns its cookies. */
async function signInToDashboard(email: string): Promise<Cookies> {
  const cookies = new Cookies();
  const login = await fetch(`${APP_URL}/api/auth/login?returnTo=/`, { redirect: "manual" });
  cookies.absorb(login);
  const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email });
  const callback = await fetch(`${APP_URL}/api/auth/callback${redirect.search}`, { redirect: "manual", headers: { cookie: cookies.header() } });
  cookies.absorb(callback);
  if (callback.status !== 303 || !callback.headers.get("location")?.endsWith("/")) throw new Error("sign-in for the benchmark failed");
  return cookies;
}

/** A hand-rolled client's token for the same member: the baseline talks to the site directly. */
async function directAccessToken(email: string): Promise<string> {
  const issuer = new URL(SITE_URL);
  const options = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options }));
  const client: oauth.Client = { client_id: SEEDED_DASHBOARD_CLIENT.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const redirectUri = `${APP_URL}/api/auth/callback`;
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: "account:read",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource: SITE_URL,
  }).toString();
  const callback = await authorizeWithoutBrowser(url.href, { email });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(SEEDED_DASHBOARD_CLIENT.clientSecret), params, redirectUri, verifier, {
    additionalParameters: { resource: SITE_URL },
    ...options,
  });
  return (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await run();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`benchmark request failed with ${response.status}`);
  return performance.now() - started;
}

async function measureLatency(cookies: Cookies, token: string): Promise<{ route: number; direct: number; floor: number }> {
  const body = JSON.stringify({ query: COURSES_DOCUMENT, variables: coursesVariables(null) });
  // Both sides over IPv4 loopback, so name resolution of "localhost" does not weigh on one side only.
  const viaRoute = () => fetch(`${APP_URL.replace("localhost", "127.0.0.1")}/api/account/courses`, { headers: { cookie: cookies.header() } });
  const direct = () =>
    fetch(`${SITE_URL}/account/graphql`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
  const health = () => fetch(`${APP_URL.replace("localhost", "127.0.0.1")}/api/health`);
  const routeTimes: number[] = [];
  const directTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let round = 0; round < ROUNDS + WARMUP; round += 1) {
    // Interleaved, alternating which goes first, so drift and ordering effects cancel.
    const pair = round % 2 === 0 ? [await timed(viaRoute), await timed(direct)] : [await timed(direct), await timed(viaRoute)].reverse();
    const floor = await timed(health);
    if (round < WARMUP) continue;
    routeTimes.push(pair[0]!);
    directTimes.push(pair[1]!);
    floorTimes.push(floor);
  }
  return { route: median(routeTimes), direct: median(directTimes), floor: median(floorTimes) };
}

async function shippedJavaScript(pathname: string, cookies: Cookies): Promise<number> {
  const html = await (await fetch(`${APP_URL}${pathname}`, { headers: { cookie: cookies.header() } })).text();
  const sources = new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!));
  let total = 0;
  for (const source of sources) {
    const script = Buffer.from(await (await fetch(new URL(source, APP_URL))).arrayBuffer());
    total += gzipSync(script, { level: 9 }).length;
  }
  // Inline scripts (the RSC payload) are part of what the page ships too.
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) total += gzipSync(Buffer.from(match[1]!), { level: 9 }).length;
  return total;
}

/** Site requests per page view, by endpoint, counted on a second view of each page (warm caches). */
async function siteRequestsPerPageView(cookies: Cookies): Promise<Record<string, Record<string, number>>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const counts: Record<string, Record<string, number>> = {};
  try {
    const context = await browser.newContext();
    await context.addCookies(cookies.list().map(({ name, value }) => ({ name, value, url: APP_URL })));
    const page = await context.newPage();
    for (const pathname of ["/", "/courses", "/orders", "/events", "/settings"]) {
      await page.goto(`${APP_URL}${pathname}`, { waitUntil: "networkidle" });
      await postSandboxControl(SITE_URL, "/__sandbox/reset");
      await page.goto(`${APP_URL}${pathname}`, { waitUntil: "networkidle" });
      const log = (await (await fetch(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string }[];
      const byEndpoint: Record<string, number> = {};
      // API calls only: course cover images are public files the browser loads from the site itself.
      for (const entry of log) if (!["control", "page", "other"].includes(entry.endpoint)) byEndpoint[entry.endpoint] = (byEndpoint[entry.endpoint] ?? 0) + 1;
      counts[pathname] = byEndpoint;
    }
  } finally {
    await browser.close();
  }
  return counts;
}

async function main(): Promise<void> {
  const server = spawn(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), path.join(root, "scripts", "start.ts")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SITE_URL: "", PORT: "3200", APP_URL, SANDBOX_PORT: "4200", SANDBOX_CONTROL: "1", SANDBOX_LATENCY_MS: "20" },
    detached: true,
  });
  try {
    await waitFor(`${APP_URL}/api/health`, 300_000);
    const cookies = await signInToDashboard("maya@example.com");
    const token = await directAccessToken("maya@example.com");

    const latency = await measureLatency(cookies, token);
    const overviewJs = await shippedJavaScript("/", cookies);
    const emptyJs = await shippedJavaScript("/bench-empty-page", new Cookies());
    const requests = await siteRequestsPerPageView(cookies);
    const sharedState = await measureSharedStateOverhead(ROUNDS);

    const results = {
      rounds: ROUNDS,
      siteLatencyMs: 20,
      latency: {
        routeMedianMs: round(latency.route),
        directMedianMs: round(latency.direct),
        ratio: round(latency.route / latency.direct, 3),
        target: 1.1,
        frameworkFloorMs: round(latency.floor),
      },
      javascript: { overviewGzipBytes: overviewJs, emptyPageGzipBytes: emptyJs, ratio: round(overviewJs / emptyJs, 3), target: 1.3 },
      siteRequestsPerPageView: requests,
      sharedState,
    };
    console.info(`(a) data route vs direct GraphQL, median latency: ${results.latency.routeMedianMs} ms / ${results.latency.directMedianMs} ms = ${results.latency.ratio} (target <= 1.10); a route that calls nothing answers in ${results.latency.frameworkFloorMs} ms`);
    console.info(`(b) JavaScript shipped, gzip: Overview ${overviewJs} B / empty page ${emptyJs} B = ${results.javascript.ratio} (target <= 1.3)`);
    const describe = (counts: Record<string, number>) => Object.entries(counts).map(([endpoint, count]) => `${count} ${endpoint}`).join(" + ") || "none";
    console.info(`(c) requests to the site per page view: ${Object.entries(requests).map(([page, counts]) => `${page} ${describe(counts)}`).join("; ")} (target: 1 Account API request per data page)`);
    console.info(`(d) data route median, in-memory store vs Redis on loopback: ${sharedState.inMemoryMedianMs} ms vs ${sharedState.redisMedianMs} ms (Redis adds ${sharedState.addedMs} ms; target <= 1 ms)`);
    mkdirSync(path.join(root, "artifacts"), { recursive: true });
    writeFileSync(path.join(root, "artifacts", "bench.json"), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
