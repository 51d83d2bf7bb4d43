// @vitest-environment happy-dom
/**
 * Settings' AI-assistant panel as the browser renders it from the BFF's answer: the tools' texts carry the
 * language the site says it wrote them in, except a title the dashboard made from a tool's name (ours, in
 * no language of the site's); and the assistant's sign-in is at the site, by the site's name.
 * (tests/e2e/connections.spec.ts shows the same against the sandbox, whose tools all have titles.)
 */
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";

import { AssistantConnections } from "@/components/settings/connections-panel";
import type { Connections } from "@/lib/types/account";

import { renderWithConnections } from "../../support/connections-answer";

const CONNECTIONS: Connections = {
  available: true,
  mcpUrl: "https://school.example.com/mcp",
  serverName: "Campus MCP",
  serverVersion: "2.0.0",
  toolsLanguage: "zh-TW",
  memberTools: true,
  tools: [
    { name: "list_my_orders", title: "列出我的訂單", description: "已登入學員的訂單。", access: "member" },
    { name: "list_my_badges", access: "member" },
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(answer: Connections, locale: "en" | "zh-TW" = "en"): ReturnType<typeof vi.fn> {
  return renderWithConnections(AssistantConnections, () => Response.json(answer), locale).fetchSpy;
}

it.each([
  ["busy", "The site's MCP server is busy right now. Please try again in a moment.", "網站的 MCP 伺服器目前忙碌中，請稍後再試。"],
  ["unreachable", "The site's MCP server did not answer. Please try again in a moment.", "網站的 MCP 伺服器沒有回應，請稍後再試。"],
] as const)("says a server that is %s may answer in a moment, and offers Retry, which asks again", async (reason, english, chinese) => {
  const fetchSpy = renderPanel({ available: false, mcpUrl: "https://school.example.com/mcp", reason });
  expect(await screen.findByText(english)).toBeTruthy();
  // For now, not "yet" (which says the site has not turned it on).
  expect(screen.getByText("AI assistants cannot connect to this site right now")).toBeTruthy();
  const asked = fetchSpy.mock.calls.length;
  fireEvent.click(screen.getByRole("button", { name: "Retry" }));
  await vi.waitFor(() => expect(fetchSpy.mock.calls.length).toBe(asked + 1));
  cleanup();
  renderPanel({ available: false, mcpUrl: "https://school.example.com/mcp", reason }, "zh-TW");
  expect(await screen.findByText(chinese)).toBeTruthy();
  expect(screen.getByText("AI 助理此刻無法連接此網站")).toBeTruthy();
  expect(screen.getByRole("button", { name: "重試" })).toBeTruthy();
});

it("says when to try again where the busy server named its wait, in both languages", async () => {
  const busyFor = (seconds: number) =>
    ({ available: false, mcpUrl: "https://school.example.com/mcp", reason: "busy", retryAfterSeconds: seconds }) as const;
  renderPanel(busyFor(120));
  expect(await screen.findByText("The site's MCP server is busy right now. Please try again in 2 minutes.")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  cleanup();
  renderPanel(busyFor(30), "zh-TW");
  expect(await screen.findByText("網站的 MCP 伺服器目前忙碌中，請於 30 秒後再試。")).toBeTruthy();
});

it("offers no Retry where asking again cannot help (no MCP server at the site)", async () => {
  renderPanel({ available: false, mcpUrl: "https://school.example.com/mcp", reason: "not_offered" });
  expect(await screen.findByText(/This site does not offer an MCP server/)).toBeTruthy();
  expect(screen.getByText("AI assistants cannot connect to this site yet")).toBeTruthy();
  expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
});

it("marks the site's tool texts with their language, not a title made from a tool's name; the sign-in step names the site", async () => {
  renderPanel(CONNECTIONS);

  const forYou = await screen.findByRole("region", { name: "For you" });
  expect(within(forYou).getByText("列出我的訂單").getAttribute("lang")).toBe("zh-TW");
  expect(within(forYou).getByText("已登入學員的訂單。").getAttribute("lang")).toBe("zh-TW");
  // No title from the site: the dashboard's own words for the tool's name, in the page's language.
  expect(within(forYou).getByText("List my badges").hasAttribute("lang")).toBe(false);
  expect(screen.getByText(/sign in to Northwind Academy and approve access/)).toBeTruthy();
});
