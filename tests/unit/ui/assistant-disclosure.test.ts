// @vitest-environment happy-dom
/**
 * Settings' "Connect an AI assistant (beta)" as the browser renders it from the BFF's answers: absent while the
 * site's MCP server does not answer (issue 24), and, once shown, kept while Settings stays open, saying inside
 * why a later answer has no assistant to offer, with Retry where it may pass.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import type { QueryClient } from "@tanstack/react-query";
import { afterEach, expect, it, vi } from "vitest";

import { AssistantDisclosure } from "@/components/settings/assistant-disclosure";
import type { Connections } from "@/lib/types/account";

import { renderWithConnections } from "../../support/connections-answer";

const MCP_URL = "https://school.example.com/mcp";
const AVAILABLE: Connections = {
  available: true,
  mcpUrl: MCP_URL,
  serverName: "Campus MCP",
  serverVersion: "2.0.0",
  memberTools: true,
  tools: [{ name: "list_my_orders", title: "List my orders", access: "member" }],
};
const BUSY: Connections = { available: false, mcpUrl: MCP_URL, reason: "busy" };
const TITLE = "Connect an AI assistant (beta)";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Renders the disclosure with the BFF answering `answer()` (a status and body, changed by the test as it goes). */
function renderDisclosure(answer: () => Response, locale: "en" | "zh-TW" = "en"): QueryClient {
  return renderWithConnections(AssistantDisclosure, answer, locale).queryClient;
}

it.each([
  ["busy", BUSY],
  ["not offered", { available: false, mcpUrl: MCP_URL, reason: "not_offered" }],
  ["refused", { available: false, mcpUrl: MCP_URL, reason: "refused" }],
] as const)("is absent when the first answer is that the MCP server is %s", async (_, answer) => {
  const fetchSpy = vi.fn();
  renderDisclosure(() => {
    fetchSpy();
    return Response.json(answer);
  });
  await vi.waitFor(() => expect(fetchSpy).toHaveBeenCalled());
  await act(() => Promise.resolve());
  expect(screen.queryByText(TITLE)).toBeNull();
});

it("once shown, stays when a later answer is busy, says so inside with Retry, and shows the tools again once it answers", async () => {
  let answer: Connections = AVAILABLE;
  const queryClient = renderDisclosure(() => Response.json(answer));
  fireEvent.click(await screen.findByText(TITLE));
  expect(await screen.findByText("List my orders")).toBeTruthy();

  // The member comes back to the tab after a while; the refetch meets a busy MCP server.
  answer = BUSY;
  await act(() => queryClient.refetchQueries());
  expect(screen.getByRole("heading", { level: 2, name: TITLE })).toBeTruthy();
  expect(await screen.findByText("The site's MCP server is busy right now. Please try again in a moment.")).toBeTruthy();
  expect(screen.queryByText("List my orders")).toBeNull();

  answer = AVAILABLE;
  fireEvent.click(screen.getByRole("button", { name: "Retry" }));
  expect(await screen.findByText("List my orders")).toBeTruthy();
});

it("once shown, stays when the dashboard's own route then fails, with its error and Retry, in either language", async () => {
  let failing = false;
  const queryClient = renderDisclosure(
    () => (failing ? Response.json({ error: "site_unavailable" }, { status: 503 }) : Response.json(AVAILABLE)),
    "zh-TW",
  );
  fireEvent.click(await screen.findByText("連接 AI 助理（測試版）"));
  expect(await screen.findByText("List my orders")).toBeTruthy();
  failing = true;
  await act(() => queryClient.refetchQueries());
  expect(screen.getByRole("heading", { level: 2, name: "連接 AI 助理（測試版）" })).toBeTruthy();
  expect(await screen.findByRole("button", { name: "重試" })).toBeTruthy();
});
