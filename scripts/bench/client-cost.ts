/**
 * How much CPU one call to the Account API costs the dashboard, by HTTP client, measured in this process
 * against a running sandbox: `tsx --conditions=react-server scripts/bench/client-cost.ts <site url>`.
 * Node's fetch; oauth4webapi and graphql-request over fetch and over the app's siteFetch (what
 * lib/account-api/client.ts does); and node:http with a keep-alive agent; ten calls in flight at a time,
 * like the concurrent run. The figures are in docs/performance.md.
 */
import http from "node:http";

import { GraphQLClient } from "graphql-request";
import * as oauth from "oauth4webapi";

import { COURSES_DOCUMENT, COURSES_PAGE_SIZE } from "../../lib/account-api/pages/courses";
import { siteFetchFor } from "../../lib/site/site-fetch";
import { directAccessToken, type BenchTarget } from "./members";

const CALLS = Number(process.env.CALLS ?? 2000);
const IN_FLIGHT = 10;

async function measure(name: string, call: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < 100; index += 1) await call();
  const before = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const spent = process.cpuUsage(before);
  console.info(
    `${name.padEnd(48)} ${((spent.user + spent.system) / 1000 / CALLS).toFixed(3)} CPU ms/call,` +
      ` ${(performance.now() - started).toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  const siteUrl = process.argv[2]!;
  const target: BenchTarget = { appUrl: "http://localhost:3000", appUrlIPv4: "http://127.0.0.1:3000", siteUrl };
  const token = await directAccessToken(target, "maya@example.com");
  const url = `${siteUrl}/account/graphql`;
  const body = JSON.stringify({ query: COURSES_DOCUMENT, variables: { first: COURSES_PAGE_SIZE, after: null } });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" };

  await measure("fetch + response.json()", async () => (await fetch(url, { method: "POST", headers, body })).json());
  const appStack = (name: string, customFetch?: ReturnType<typeof siteFetchFor>) =>
    measure(name, () =>
      new GraphQLClient(url, {
        excludeOperationName: true,
        fetch: (input: RequestInfo | URL, init?: RequestInit) =>
          oauth.protectedResourceRequest(
            token,
            "POST",
            new URL(input instanceof Request ? input.url : input.toString()),
            new Headers({ "content-type": "application/json", accept: "application/json" }),
            (init?.body as string) ?? null,
            { [oauth.allowInsecureRequests]: true, ...(customFetch ? { [oauth.customFetch]: customFetch } : {}) },
          ),
      }).request({ document: COURSES_DOCUMENT, variables: { first: COURSES_PAGE_SIZE, after: null } }),
    );
  await appStack("oauth4webapi + graphql-request over fetch");
  // What lib/account-api/client.ts sends through: siteFetch, node:http with a keep-alive agent, read whole.
  await appStack("oauth4webapi + graphql-request over siteFetch (the app)", siteFetchFor("graphql"));
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  await measure(
    "node:http keep-alive + JSON.parse",
    () =>
      new Promise((resolve, reject) => {
        const request = http.request(url, { method: "POST", headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
          response.on("error", reject);
        });
        request.on("error", reject);
        request.end(body);
      }),
  );
  agent.destroy();
}

void main();
