// @vitest-environment happy-dom
/**
 * "Sign out there" keeps the ended sign-in's row where it was, its answer in place of its button (with
 * focus), once the list comes back without it: the rows below do not move up under the finger.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";

import { SignedInSessions } from "@/components/settings/signed-in-sessions";
import { ARMING_DELAY_MS } from "@/lib/client/deliberate-click";
import type { SignedInSessionsBody } from "@/lib/contract/signed-in-sessions";

import { renderInLocale } from "../../support/render-ui";
import { signedInSessionView } from "../../support/signed-in-session-view";

const here = signedInSessionView("here", "Chrome", true);
const phone = signedInSessionView("phone", "Firefox");
const tablet = signedInSessionView("tablet", "Samsung Internet");

let ended: string[];

beforeEach(() => {
  vi.useFakeTimers();
  ended = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((path: string, init?: RequestInit) => {
      if (path === "/api/sessions/end") {
        ended.push((JSON.parse(init?.body as string) as { id: string }).id);
        // The site did not confirm the revocation: the answer says so.
        return Promise.resolve(Response.json({ ended: 1, complete: false }));
      }
      const body: SignedInSessionsBody = { sessions: [here, phone, tablet].filter(({ id }) => !ended.includes(id)) };
      return Promise.resolve(Response.json(body));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const settle = (ms = 50) => act(() => vi.advanceTimersByTimeAsync(ms));

it("Sign out there: the row stays in its place, answered where its button was, after the list comes back without it", async () => {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  renderInLocale(createElement(QueryClientProvider, { client: queryClient }, createElement(SignedInSessions)));
  await settle(ARMING_DELAY_MS);
  fireEvent.click(screen.getByRole("button", { name: /^Sign out there: Firefox/ }));
  await settle();
  expect(ended).toEqual(["phone"]);
  // The list was asked for again, and came back without that sign-in.
  expect(vi.mocked(fetch).mock.calls.filter(([path]) => path === "/api/sessions")).toHaveLength(2);

  const rows = screen.getAllByRole("listitem");
  expect(rows.map((row) => row.textContent?.slice(0, 16))).toEqual(["Chrome on Androi", "Firefox on Andro", "Samsung Internet"]);
  const answer = screen.getByRole("status");
  expect(rows[1]!.contains(answer)).toBe(true);
  expect(answer.textContent).toBe(
    "Signed out there. The site did not confirm it: that sign-in may stay valid at the site until it expires.",
  );
  expect(document.activeElement).toBe(answer);
  expect(rows[1]!.querySelector("button")).toBeNull();
  expect(screen.getAllByRole("button", { name: /^Sign out there: / })).toHaveLength(1);
  expect(screen.getByRole("button", { name: "Sign out everywhere else" })).toBeDefined();
});

it("a row's facts are parted by a dot that stays with the fact before it, so a wrapped line never starts with it", async () => {
  renderInLocale(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(SignedInSessions)));
  await settle();
  const facts = screen.getAllByRole("listitem").map((row) => row.querySelectorAll("p")[1]?.textContent);
  expect(facts[0]).toMatch(/^In its own tab\u00a0· Signed in [^·]+$/);
  expect(facts[1]).toMatch(/^In its own tab\u00a0· Signed in .+\u00a0· Last active /);
});
