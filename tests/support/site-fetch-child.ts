/**
 * One call of each transport to `process.argv[2]` (a path answering JSON), as the dashboard makes them: the
 * node:http one (a GraphQL call) and the fetch one (an MCP call). Prints `{ "graphql": …, "mcp": … }` with
 * each answer's JSON. For tests/integration/egress-proxy.test.ts, run with `node --import tsx
 * --conditions=react-server` and the environment under test (Node reads its proxy settings at startup).
 */
import { siteFetch } from "@/lib/site/site-fetch";

const target = process.argv[2]!;
const answers: Record<string, unknown> = {};
for (const kind of ["graphql", "mcp"] as const) {
  answers[kind] = await (await siteFetch(kind, target, { method: "POST", body: "{}", redirect: "manual" })).json();
}
console.info(JSON.stringify(answers));
