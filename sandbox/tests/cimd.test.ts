import { createServer } from "node:http";
import type { Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CIMD_FETCH_TIMEOUT_MS, CIMD_MAX_BYTES } from "../cimd";
import { loadSandboxConfig, SandboxConfigError } from "../config";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser } from "../testing";
import { authorizeUrl, newPkce, postForm } from "./helpers";

/** A local document host: path -> [status, content type, body]. */
const documents = new Map<string, { status: number; type: string; body: string; headers?: Record<string, string>; hang?: boolean }>();
const hits: string[] = [];
let docServer: Server;
let docOrigin: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  docServer = createServer((request, response) => {
    hits.push(request.url ?? "");
    const doc = documents.get(request.url ?? "");
    if (!doc) {
      response.writeHead(404).end();
      return;
    }
    if (doc.hang) return; // never answers
    response.writeHead(doc.status, { "content-type": doc.type, ...doc.headers }).end(doc.body);
  });
  await new Promise<void>((resolve) => docServer.listen(0, "127.0.0.1", resolve));
  const address = docServer.address();
  docOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  docServer.closeAllConnections();
  await new Promise<void>((resolve) => docServer.close(() => resolve()));
});
beforeEach(() => {
  sandbox.setKnobs({ cimdAllowedHosts: [new URL(docOrigin).host], cimdAllowHttpLoopback: true, cimdOpenRegistration: false });
  hits.length = 0;
});

function publish(
  path: string,
  document: Record<string, unknown>,
  options: { status?: number; type?: string; headers?: Record<string, string> } = {},
): string {
  documents.set(path, {
    status: options.status ?? 200,
    type: options.type ?? "application/json",
    body: JSON.stringify(document),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  return `${docOrigin}${path}`;
}

function goodDocument(path: string, extra: Record<string, unknown> = {}): string {
  const clientId = `${docOrigin}${path}`;
  return publish(path, {
    client_id: clientId,
    client_name: "Notes Agent",
    redirect_uris: ["http://127.0.0.1:6123/callback"],
    token_endpoint_auth_method: "none",
    ...extra,
  });
}

function authorize(clientId: string, scope = "openid profile courses:read", redirectUri = "http://127.0.0.1:6123/callback") {
  const pkce = newPkce();
  const url = authorizeUrl(sandbox.url, {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    state: "st",
  });
  return { url, pkce, redirectUri };
}

async function refusalPage(clientId: string, scope?: string, redirectUri?: string): Promise<string> {
  const response = await fetch(authorize(clientId, scope, redirectUri).url, { redirect: "manual" });
  expect(response.status).toBe(400);
  return response.text();
}

describe("Client ID Metadata Documents", () => {
  it("accepts a document from an allowlisted host, and the whole flow works with the URL as client_id", async () => {
    const clientId = goodDocument("/agents/notes.json");
    const { url, pkce, redirectUri } = authorize(clientId);
    const consent = await (await fetch(url)).text();
    expect(consent).toContain("Notes Agent");
    expect(consent).toContain(`unreviewed application published at ${new URL(docOrigin).host}`);
    const location = await authorizeWithoutBrowser(url, { email: "olivia@example.com" });
    const code = location.searchParams.get("code");
    expect(code).not.toBeNull();
    const tokens = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "authorization_code",
      code: code ?? "",
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
      client_id: clientId,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe("openid profile courses:read");
    expect(hits).toContain("/agents/notes.json");
  });

  it("refuses a host that is not allowlisted without fetching anything", async () => {
    sandbox.setKnobs({ cimdAllowedHosts: ["docs.example.com"] });
    const clientId = goodDocument("/agents/notes.json");
    expect(await refusalPage(clientId)).toContain("does not accept client metadata documents from");
    expect(await refusalPage("https://not-allowed.example.net/client.json")).toContain("not-allowed.example.net");
    expect(hits).toEqual([]);
  });

  it("treats http document URLs as plain (unknown) client ids unless the test-only knob is on", async () => {
    sandbox.setKnobs({ cimdAllowHttpLoopback: false });
    const clientId = goodDocument("/agents/notes.json");
    expect(await refusalPage(clientId)).toContain("not registered");
    expect(hits).toEqual([]);
  });

  it("refuses redirect_uris outside the document's host", async () => {
    const clientId = goodDocument("/agents/elsewhere.json", {
      redirect_uris: ["http://127.0.0.1:6123/callback", "https://elsewhere.example/cb"],
    });
    expect(await refusalPage(clientId)).toContain("every redirect URI must be on");
  });

  it("refuses a redirect_uri the document does not list", async () => {
    const clientId = goodDocument("/agents/notes.json");
    expect(await refusalPage(clientId, "openid", "http://127.0.0.1:6123/other")).toContain("not registered for this application");
  });

  it("refuses a document whose client_id is not its URL", async () => {
    const clientId = publish("/agents/mismatch.json", {
      client_id: `${docOrigin}/agents/someone-else.json`,
      redirect_uris: ["http://127.0.0.1:6123/callback"],
    });
    expect(await refusalPage(clientId)).toContain("client_id does not equal its URL");
  });

  it("refuses documents with a secret, a confidential auth method, a redirect, the wrong type, or too many bytes", async () => {
    const cases: [string, string][] = [
      [goodDocument("/d/secret.json", { client_secret: "s3cret" }), "must not contain a client secret"],
      [goodDocument("/d/post.json", { token_endpoint_auth_method: "client_secret_post" }), "must be none"],
      [
        publish("/d/redirect.json", {}, { status: 302, headers: { location: `${docOrigin}/agents/notes.json` } }),
        "redirects are not followed",
      ],
      [
        publish(
          "/d/text.json",
          { client_id: `${docOrigin}/d/text.json`, redirect_uris: ["http://127.0.0.1:6123/callback"] },
          { type: "text/plain" },
        ),
        "application/json",
      ],
      [goodDocument("/d/big.json", { padding: "x".repeat(CIMD_MAX_BYTES) }), "too large"],
      [publish("/d/empty.json", { client_id: `${docOrigin}/d/empty.json`, redirect_uris: [] }), "invalid"],
      [`${docOrigin}/d/missing.json`, "HTTP 404"],
    ];
    for (const [clientId, message] of cases) expect(await refusalPage(clientId), clientId).toContain(message);
  });

  it("gives up on a document host that does not answer in time", async () => {
    documents.set("/d/slow.json", { status: 200, type: "application/json", body: "", hang: true });
    const started = performance.now();
    expect(await refusalPage(`${docOrigin}/d/slow.json`)).toContain("could not be fetched");
    expect(performance.now() - started).toBeLessThan(CIMD_FETCH_TIMEOUT_MS + 2000);
  });

  it("refuses malformed document URLs", async () => {
    for (const clientId of [
      `${docOrigin}/`,
      `${docOrigin}/a/../b.json`,
      `${docOrigin}/a.json#x`,
      "https://user:pw@docs.example.com/a.json",
    ]) {
      const response = await fetch(authorize(clientId).url, { redirect: "manual" });
      expect(response.status, clientId).toBe(400);
    }
    expect(hits).toEqual([]);
  });

  it.each([
    ["account:read", "openid account:read"],
    ["a write scope", "openid courses:write"],
    ["account:write", "account:write"],
  ])("gives an unreviewed client asking for %s invalid_scope", async (_label, scope) => {
    const clientId = goodDocument("/agents/notes.json");
    const response = await fetch(authorize(clientId, scope).url, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.origin).toBe("http://127.0.0.1:6123");
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("state")).toBe("st");
  });

  it("lets an unreviewed client have identity and every operator read scope", async () => {
    const clientId = goodDocument("/agents/notes.json");
    const response = await fetch(authorize(clientId, "openid profile email courses:read orders:read analytics:read").url, {
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("never opens plain-http or IP-literal hosts through open registration", async () => {
    sandbox.setKnobs({ cimdAllowedHosts: [], cimdOpenRegistration: true });
    expect(await refusalPage(goodDocument("/agents/notes.json"))).toContain("does not accept client metadata documents");
    expect(await refusalPage("https://10.0.0.8/client.json")).toContain("does not accept client metadata documents");
    expect(hits).toEqual([]);
  });

  it("reads the allowlist and open registration from the environment", () => {
    const config = loadSandboxConfig({
      SANDBOX_CIMD_ALLOWED_HOSTS: "Docs.Example.com, agents.example.org:8443",
      SANDBOX_CIMD_OPEN_REGISTRATION: "off",
    });
    expect(config.options.knobs).toMatchObject({
      cimdAllowedHosts: ["docs.example.com", "agents.example.org:8443"],
      cimdOpenRegistration: false,
    });
    expect(() => loadSandboxConfig({ SANDBOX_CIMD_ALLOWED_HOSTS: "https://docs.example.com/x" })).toThrow(SandboxConfigError);
    expect(() => sandbox.setKnobs({ cimdAllowedHosts: ["not a host"] })).toThrow();
  });
});
