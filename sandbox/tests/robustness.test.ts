import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { obtainTokens } from "./helpers";

let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = (await obtainTokens(sandbox)).accessToken;
});
afterAll(async () => {
  await sandbox.close();
});

const POST_ENDPOINTS = [
  "/api/oauth/token",
  "/api/oauth/revoke",
  "/api/oauth/introspect",
  "/api/oauth/register",
  "/account/graphql",
  "/oauth/authorize/sign-in",
  "/oauth/authorize/decision",
  "/logout",
  "/mcp",
  "/sign-in",
  "/admin/beta",
  "/admin/developers/oauth-applications",
  "/admin/developers/oauth-applications/app_x/delete",
];

const CONTENT_TYPES = [
  undefined,
  "application/x-www-form-urlencoded",
  "application/json",
  "text/plain",
  "multipart/form-data; boundary=xyz",
  "application/x-www-form-urlencoded; charset=utf-8",
];

function bodies(): (string | Uint8Array<ArrayBuffer>)[] {
  return [
    "",
    "{",
    "null",
    "[]",
    '{"query": 42}',
    '{"query": "{ viewer { id } }", "variables": "nope"}',
    '{"query": "{ viewer { id } }", "operationName": 7}',
    "grant_type=authorization_code&code=%ZZ&client_id=%",
    "grant_type=refresh_token&grant_type=refresh_token",
    "client_id=companion-dashboard&client_secret=" + "x".repeat(10_000),
    `request_id=${"a".repeat(5000)}&csrf_token=&email=<script>&password=`,
    new Uint8Array(randomBytes(512)),
    JSON.stringify({ query: "{ viewer { " + "enrolledCourses { nodes { slug } } ".repeat(2000) + "} }" }),
    JSON.stringify({ query: "query { viewer { enrolledCourses(first: 99999999999) { totalCount } } }" }),
    JSON.stringify({ query: "query Q($f: Int) { viewer { enrolledCourses(first: $f) { totalCount } } }", variables: { f: "many" } }),
    JSON.stringify({ query: "query A { viewer { id } } query B { viewer { id } }" }),
  ];
}

describe("never a 500", () => {
  it("answers garbage POST bodies with client errors on every endpoint", async () => {
    const cases: { path: string; headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer>; label: string }[] = [];
    for (const path of POST_ENDPOINTS) {
      for (const contentType of CONTENT_TYPES) {
        for (const body of bodies()) {
          for (const auth of [undefined, `Bearer ${token}`, "Bearer", "Basic Zm9vOmJhcg==", "Bearer " + "x".repeat(4000)]) {
            const headers: Record<string, string> = {};
            if (contentType) headers["content-type"] = contentType;
            if (auth) headers.authorization = auth;
            cases.push({ path, headers, body, label: `${path} ${contentType ?? "-"} ${auth?.slice(0, 20) ?? "-"}` });
          }
        }
      }
    }
    expect(cases.length).toBeGreaterThan(1000);
    // Eight at a time: over six thousand requests one after another outlast any bound on a busy machine.
    const answers: { label: string; status: number; text: string }[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = cases.shift(); next; next = cases.shift()) {
          const response = await fetch(`${sandbox.url}${next.path}`, {
            method: "POST",
            headers: next.headers,
            body: next.body,
            redirect: "manual",
          });
          answers.push({ label: next.label, status: response.status, text: await response.text() });
        }
      }),
    );
    for (const { label, status, text } of answers) {
      expect(status, label).toBeLessThan(500);
      expect(text, label).not.toMatch(/at .+\.ts:\d+/);
    }
  }, 90_000);

  it("answers huge bodies with 413", async () => {
    const response = await fetch(`${sandbox.url}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=" + "b".repeat(2_000_000),
    });
    expect(response.status).toBe(413);
  });

  it("answers garbage query strings at the authorization endpoint and pages without a 500", async () => {
    const paths = [
      "/oauth/authorize",
      "/oauth/authorize?client_id=%E0%A4%A",
      "/oauth/authorize?client_id=companion-public&redirect_uri=http://127.0.0.1:8976/callback&scope=" + "x".repeat(20_000),
      "/oauth/authorize?client_id=companion-public&redirect_uri=http://127.0.0.1:8976/callback&state=" + "s".repeat(2000),
      "/oauth/authorize/resume?request_id=nope",
      "/oauth/authorize/resume",
      "/courses/%00",
      "/courses/watercolor-foundations/lectures/nope?t=abc",
      "/courses/watercolor-foundations/lectures/48001?t=99999999999999999999",
      "/covers/..%2F..%2Fetc%2Fpasswd",
      "/api/oauth/userinfo",
      "/.well-known/nothing",
      "/auth.md",
      "/",
      "/mcp",
      "/admin",
      "/admin/developers",
      "/admin/developers/oauth-applications",
      "/sign-in?return_to=%2F%2Fevil.example",
      "/openapi.json",
      "/llms.txt",
      "/pricing.md",
      "/oauth/authorize?client_id=https%3A%2F%2Fnot-allowed.example%2Fa.json&redirect_uri=https%3A%2F%2Fnot-allowed.example%2Fcb",
      "/oauth/authorize?client_id=https%3A%2F%2F%5B%3A%3A1%5D%2Fa.json",
    ];
    for (const path of paths) {
      const response = await fetch(`${sandbox.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBeLessThan(500);
      await response.body?.cancel();
    }
  });

  it("logged no 500 at all", () => {
    expect(sandbox.requests().filter((entry) => entry.status >= 500)).toEqual([]);
  });
});
