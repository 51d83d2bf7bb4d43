/**
 * The fetch the MCP SDK's transport is given: whatever the SDK asks of it, only the site's MCP endpoint is
 * called, with the member's token (or none) and never a credential the SDK put in the request.
 */
import { describe, expect, it } from "vitest";

import { MCP_PATH, mcpTransportFetch } from "@/lib/site/mcp-client";

import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";

const site = setUpDashboardOnFakeSite();

const FOREIGN_CREDENTIALS = { authorization: "Bearer not-the-members", cookie: "dash_session=browser-cookie" };

function transportFetch(accessToken: string | null, language?: { accept: string; declared?: string }) {
  return mcpTransportFetch(new URL(`${site.url}${MCP_PATH}`), accessToken, AbortSignal.timeout(5_000), () => undefined, language);
}

function post(headers: Record<string, string>) {
  return { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' };
}

describe("the MCP transport's fetch", () => {
  it("calls no URL but the site's MCP endpoint, whatever the SDK asks for", async () => {
    for (const other of [`${site.url}/api/oauth/token`, `${site.url}${MCP_PATH}?x=1`, `${site.url}${MCP_PATH}/`]) {
      await expect(transportFetch("member-token")(other, post({}))).rejects.toThrow("another URL than the site's MCP endpoint");
    }
    expect(site.calls).toEqual([]);
  });

  it("sends no authorization or cookie the SDK put in its request: the member's token alone, or nothing", async () => {
    site.handlers.set("POST /mcp", () => ({ json: { jsonrpc: "2.0", id: 1, result: {} } }));
    expect((await transportFetch("member-token")(`${site.url}${MCP_PATH}`, post(FOREIGN_CREDENTIALS))).status).toBe(200);
    expect((await transportFetch(null)(`${site.url}${MCP_PATH}`, post(FOREIGN_CREDENTIALS))).status).toBe(200);
    const [asMember, anonymous] = site.callsTo(MCP_PATH);
    expect(asMember?.headers.authorization).toBe("Bearer member-token");
    expect(anonymous?.headers.authorization).toBeUndefined();
    for (const call of [asMember, anonymous]) expect(call?.headers.cookie).toBeUndefined();
  });

  it("asks in the member's language, and keeps the answer's language only when it names a single one", async () => {
    const answers = ["zh-TW", " en-GB ", "en, zh-TW", "zh_TW", "", "x".repeat(9), "zh-Hant-TW"];
    let next = 0;
    site.handlers.set("POST /mcp", () => ({
      json: { jsonrpc: "2.0", id: 1, result: {} },
      headers: { "content-language": answers[next++]! },
    }));
    const declared: (string | undefined)[] = [];
    for (const token of answers.map((_, index) => (index % 2 === 0 ? "member-token" : null))) {
      const language: { accept: string; declared?: string } = { accept: "zh-TW, en;q=0.5" };
      await transportFetch(token, language)(`${site.url}${MCP_PATH}`, post({ "accept-language": "fr" }));
      declared.push(language.declared);
    }
    expect(declared).toEqual(["zh-TW", "en-GB", undefined, undefined, undefined, undefined, "zh-Hant-TW"]);
    expect(site.callsTo(MCP_PATH).map((call) => call.headers["accept-language"])).toEqual(answers.map(() => "zh-TW, en;q=0.5"));
  });

  it("keeps the last answer's language: one that names none takes back what an earlier answer said", async () => {
    const answers = ["zh-TW", ""];
    let next = 0;
    site.handlers.set("POST /mcp", () => ({
      json: { jsonrpc: "2.0", id: 1, result: {} },
      headers: { "content-language": answers[next++]! },
    }));
    const language: { accept: string; declared?: string } = { accept: "zh-TW, en;q=0.5" };
    const send = transportFetch("member-token", language);
    await send(`${site.url}${MCP_PATH}`, post({}));
    expect(language.declared).toBe("zh-TW");
    await send(`${site.url}${MCP_PATH}`, post({}));
    expect(language.declared).toBeUndefined();
  });
});
