import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COURSES } from "../data/catalog";
import { PRODUCTS } from "../data/pricing";
import { ALL_SCOPES } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { postForm } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function getText(path: string, contentType: RegExp): Promise<string> {
  const response = await fetch(`${sandbox.url}${path}`);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type"), path).toMatch(contentType);
  return response.text();
}

/** Routes that are the site's own pages (HTML for people, test controls), not the public Site Access API. */
function isSitePage(path: string): boolean {
  return (
    path === "/*" ||
    path === "/" ||
    path === "/logout" ||
    path === "/maintenance" ||
    path === "/my-learning" ||
    path === "/my-learning/panel.js" ||
    path === "/sign-in" ||
    path === "/courses" ||
    path === "/events" ||
    path.startsWith("/orders/") ||
    path.startsWith("/__sandbox/") ||
    path.startsWith("/oauth/authorize/") ||
    path.startsWith("/courses/") ||
    path.startsWith("/covers/") ||
    path === "/admin" ||
    path.startsWith("/admin/")
  );
}

describe("/openapi.json", () => {
  it("is a valid OpenAPI 3.0.3 document with this server's URL", async () => {
    const document = JSON.parse(await getText("/openapi.json", /^application\/json/)) as Record<string, unknown>;
    expect(document.openapi).toBe("3.0.3");
    expect(document.servers).toEqual([{ url: sandbox.url }]);
    await expect(
      SwaggerParser.validate(structuredClone(document) as unknown as Parameters<typeof SwaggerParser.validate>[0]),
    ).resolves.toBeDefined();
  });

  it("describes every public HTTP route of the sandbox, and nothing that does not exist", async () => {
    const document = JSON.parse(await getText("/openapi.json", /^application\/json/)) as { paths: Record<string, Record<string, unknown>> };
    const routes = sandbox.app.routes.filter((route) => !isSitePage(route.path));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const operations = document.paths[route.path];
      expect(operations, `${route.method} ${route.path}`).toBeDefined();
      const method = route.method === "ALL" ? "post" : route.method.toLowerCase();
      expect(operations?.[method], `${route.method} ${route.path}`).toBeDefined();
    }
    const routePaths = new Set(sandbox.app.routes.map((route) => route.path));
    for (const path of Object.keys(document.paths)) expect(routePaths.has(path), path).toBe(true);
    for (const path of [
      "/api/oauth/register",
      "/oauth/authorize",
      "/api/oauth/token",
      "/api/oauth/userinfo",
      "/api/oauth/revoke",
      "/api/oauth/introspect",
      "/account/graphql",
      "/mcp",
      "/auth.md",
      "/llms.txt",
      "/pricing.md",
      "/openapi.json",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
  });

  it("lists every scope in its OAuth flow", async () => {
    const document = JSON.parse(await getText("/openapi.json", /^application\/json/)) as {
      components: { securitySchemes: { oauth2: { flows: { authorizationCode: { scopes: Record<string, string>; tokenUrl: string } } } } };
    };
    const flow = document.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(Object.keys(flow.scopes)).toEqual(ALL_SCOPES);
    expect(flow.tokenUrl).toBe(`${sandbox.url}/api/oauth/token`);
  });
});

describe("/auth.md", () => {
  it("walks through authentication with this server's real URLs and scopes", async () => {
    const text = await getText("/auth.md", /^text\/markdown; charset=utf-8/);
    expect(text).toMatch(/^# Demo Academy: authentication/);
    for (const url of [
      `${sandbox.url}/.well-known/oauth-authorization-server`,
      `${sandbox.url}/oauth/authorize`,
      `${sandbox.url}/api/oauth/token`,
      `${sandbox.url}/api/oauth/register`,
      `${sandbox.url}/account/graphql`,
      `${sandbox.url}/mcp`,
    ]) {
      expect(text).toContain(url);
    }
    for (const scope of ALL_SCOPES) expect(text).toContain(`| \`${scope}\` |`);
    expect(text).toContain("code_challenge_method=S256");
    expect(text).toContain("client_secret_post");
  });

  it("has the #errors section that error_uri points at, covering every OAuth error code", async () => {
    const failure = await postForm(`${sandbox.url}/api/oauth/token`, { grant_type: "authorization_code" });
    expect(failure.body.error_uri).toBe(`${sandbox.url}/auth.md#errors`);
    const text = await getText("/auth.md", /^text\/markdown/);
    expect(text).toMatch(/^## Errors$/m);
    const errors = text.slice(text.indexOf("## Errors"));
    for (const code of [
      "invalid_request",
      "invalid_client",
      "invalid_grant",
      "unsupported_grant_type",
      "invalid_scope",
      "invalid_target",
      "invalid_client_metadata",
      "invalid_redirect_uri",
      "invalid_token",
      "insufficient_scope",
    ]) {
      expect(errors).toContain(`\`${code}\``);
    }
  });

  it("follows the id_token knob", async () => {
    expect(await getText("/auth.md", /^text\/markdown/)).toContain("id_token");
    sandbox.setKnobs({ idToken: false });
    try {
      expect(await getText("/auth.md", /^text\/markdown/)).toContain("issues no id_token");
    } finally {
      sandbox.setKnobs({ idToken: true });
    }
  });
});

describe("/llms.txt", () => {
  it("follows the llms.txt conventions and links the agent documents", async () => {
    const text = await getText("/llms.txt", /^text\/plain; charset=utf-8/);
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Demo Academy");
    expect(lines.find((line) => line.startsWith("> "))).toBeDefined();
    for (const path of ["/auth.md", "/openapi.json", "/pricing.md", "/mcp"]) {
      expect(text).toMatch(new RegExp(`^- \\[[^\\]]+\\]\\(${(sandbox.url + path).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\)`, "m"));
    }
    expect(text).toMatch(/^## Docs$/m);
    expect(text).toMatch(/^## Optional$/m);
  });
});

describe("/pricing.md", () => {
  it("lists every course and product with its price", async () => {
    const text = await getText("/pricing.md", /^text\/markdown; charset=utf-8/);
    expect(text).toMatch(/^# Demo Academy: pricing/);
    for (const course of COURSES) expect(text).toContain(`[${course.name}](${sandbox.url}/courses/${course.slug})`);
    expect(text).toContain("| [Watercolor Foundations](");
    expect(text).toContain("| 1 year | NT$3,200 |");
    expect(text).toContain("US$129");
    for (const product of PRODUCTS) expect(text).toContain(product.name);
  });
});
