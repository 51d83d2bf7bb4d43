/**
 * How much CPU one call to the Account API costs the dashboard, measured in this process against a
 * running sandbox: `tsx --conditions=react-server scripts/bench/lab/client-cost.ts <site url>`. The app's
 * own client (runAccountOperation of lib/account-api/client.ts, as the Courses page calls it) beside a
 * bare fetch + JSON.parse of the same operation, ten calls in flight at a time like the concurrent run.
 * A lab tool: `npm run bench` does not load it.
 */
import { runAccountOperation } from "../../../lib/account-api/client";
import { COURSES_OPERATION, COURSES_PAGE_SIZE } from "../../../lib/account-api/pages/courses";
import { resetConfigForTests } from "../../../lib/config";
import { configureDashboard } from "../../../tests/support/env";
import { directAccessToken, type BenchTarget } from "../members";

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
  configureDashboard(siteUrl);
  resetConfigForTests();
  const target: BenchTarget = { appUrl: "http://localhost:3000", appUrlIPv4: "http://127.0.0.1:3000", siteUrl };
  const token = await directAccessToken(target, "maya@example.com");
  const variables = { first: COURSES_PAGE_SIZE, after: null };
  const body = JSON.stringify({ query: COURSES_OPERATION.document, variables });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" };

  await measure("fetch + response.json()", async () =>
    (await fetch(`${siteUrl}/account/graphql`, { method: "POST", headers, body })).json(),
  );
  await measure("the app's client (runAccountOperation)", () => runAccountOperation(token, COURSES_OPERATION, variables));
}

void main();
