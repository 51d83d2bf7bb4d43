/**
 * How much CPU one Courses data request costs the dashboard, layer by layer, measured in this process
 * against a running sandbox: `tsx --conditions=react-server scripts/bench/lab/client-cost.ts <site url>`, the
 * sandbox started 20 ms away like the bench's and accepting this tool's sign-in through the route handlers:
 *
 *   SANDBOX_LATENCY_MS=20 \
 *   SANDBOX_DASHBOARD_REDIRECT_URIS=http://localhost:3000/api/auth/callback,http://localhost:3999/api/auth/callback \
 *   npm run sandbox
 *
 * Each layer is the one above it plus one more of the app's own steps, ten calls in flight at a time like
 * the concurrent run, `ROUNDS` times in turn (default 3), so that a difference between two layers can be
 * told from the run's noise:
 *
 *   the floor: node:http with a keep-alive agent and JSON.parse, nothing of the app's
 *   siteFetch: the app's one fetch to the site (bounds, caps, metrics, a Fetch Response read as JSON)
 *   oauth4webapi's protectedResourceRequest through siteFetch (the bearer request and its challenge check)
 *   the app's Account API client (runAccountOperation: graphql-request, schema fitting, page sizes)
 *   the page's loader (loadAccountPage: paging, reshape, the Resume and course links)
 *   the data route's handler (GET /api/account/courses with a sealed session: log, jar, deadline, session, JSON)
 *
 * A lab tool: `npm run bench` does not load it.
 */
import http from "node:http";

import * as oauth from "oauth4webapi";

import { runAccountOperation } from "../../../lib/account-api/client";
import { COURSES_OPERATION, COURSES_PAGE_SIZE } from "../../../lib/account-api/pages/courses";
import { loadAccountPage } from "../../../lib/account-api/registry";
import { resetConfigForTests } from "../../../lib/config";
import { siteRequestOptions } from "../../../lib/site/oauth-http";
import { siteFetch } from "../../../lib/site/site-fetch";
import { SEEDED_DASHBOARD_CLIENT } from "../../../sandbox/seed";
import { configureDashboard } from "../../../tests/support/env";
import { RouteBrowser, signInThroughRoutes } from "../../../tests/support/route-browser";
import { directAccessToken, type BenchTarget } from "../members";

const CALLS = Number(process.env.CALLS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const IN_FLIGHT = 10;

/** CPU milliseconds per call of `call`, ten in flight, after a warm-up. */
async function cpuPerCall(call: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 300; index += 1) await call();
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000 / CALLS;
}

async function main(): Promise<void> {
  const siteUrl = process.argv[2]!;
  configureDashboard(siteUrl, {
    OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
    OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
  });
  resetConfigForTests();
  const target: BenchTarget = { appUrl: "http://localhost:3000", appUrlIPv4: "http://127.0.0.1:3000", siteUrl };
  const token = await directAccessToken(target, "maya@example.com");
  const browser = new RouteBrowser();
  await signInThroughRoutes(browser, { email: "maya@example.com" });
  const { GET: dataRoute } = await import("@/app/api/account/[resource]/route");

  const url = new URL("/account/graphql", siteUrl);
  const variables = { first: COURSES_PAGE_SIZE, after: null };
  const body = JSON.stringify({ query: COURSES_OPERATION.document, variables });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" };
  const agent = new http.Agent({ keepAlive: true });

  const layers: [string, () => Promise<unknown>][] = [
    [
      "node:http + JSON.parse (the floor)",
      () =>
        new Promise((resolve, reject) => {
          const request = http.request(
            url,
            { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
            (answer) => {
              const chunks: Buffer[] = [];
              answer.on("data", (chunk: Buffer) => chunks.push(chunk));
              answer.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
            },
          );
          request.on("error", reject);
          request.end(body);
        }),
    ],
    [
      "siteFetch + response.json()",
      async () => (await siteFetch("graphql", url, { method: "POST", headers, body })).json() as Promise<unknown>,
    ],
    [
      "oauth4webapi protectedResourceRequest",
      async () => {
        const requestHeaders = new Headers({ "content-type": "application/json", accept: "application/json" });
        const answer = await oauth.protectedResourceRequest(token, "POST", url, requestHeaders, body, siteRequestOptions());
        return answer.json() as Promise<unknown>;
      },
    ],
    ["the app's client (runAccountOperation)", () => runAccountOperation(token, COURSES_OPERATION, variables)],
    ["the page's loader (loadAccountPage)", () => loadAccountPage("courses", { accessToken: token, claims: { sub: "maya" } })],
    [
      "the data route's handler",
      async () => {
        const answer = await dataRoute(browser.request("/api/account/courses"), { params: Promise.resolve({ resource: "courses" }) });
        if (answer.status !== 200) throw new Error(`the data route answered ${answer.status}`);
        return answer.text();
      },
    ],
  ];
  const readings = new Map<string, number[]>(layers.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, call] of layers) readings.get(name)!.push(await cpuPerCall(call));
  }
  for (const [name, values] of readings) {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const all = sorted.map((value) => value.toFixed(3)).join(" ");
    console.info(`${name.padEnd(44)} ${all} CPU ms/call (median ${median.toFixed(3)})`);
  }
  agent.destroy();
  process.exit(0);
}

void main();
