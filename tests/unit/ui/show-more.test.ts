// @vitest-environment happy-dom
/**
 * "Show more" on a site that is not our sandbox. When the site no longer takes the cursor it handed out
 * (its cursors expire, the list changed), or the dashboard no longer takes its own (SESSION_SECRET
 * rotated), the list is read again from the top, once, and goes on from
 * there, instead of the same refusal on every Retry until the member reloads. Any other failure is shown
 * as it is, and a refusal that outlasts the fresh read is shown with Retry, never asked again on its own.
 * And when the list changed between two pages of a site that pages by position, the item repeated at the
 * seam is shown once.
 */
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { OrdersView } from "@/components/orders/orders-view";
import type { Order, OrdersPage } from "@/lib/types/account";

import { paidOrder } from "../../support/order-fixture";
import { renderInLocale } from "../../support/render-ui";

const NEWEST = [paidOrder("T-3", "2026-11-03T00:00:00Z"), paidOrder("T-2", "2026-11-02T00:00:00Z")];
const OLDEST = [paidOrder("T-1", "2026-11-01T00:00:00Z")];
const page = (items: Order[], nextCursor: string | null): OrdersPage => ({ items, totalCount: 3, nextCursor });
const refused = () =>
  Response.json({ error: { code: "query_failed", message: "The site could not answer this request." } }, { status: 502 });
/** The dashboard's own refusal: a cursor from before SESSION_SECRET rotated, or given to another member. */
const notOurs = () =>
  Response.json(
    {
      error: {
        code: "invalid_cursor",
        message: "This list's page cursor is not one the dashboard gave out for it. Load the list again from the start.",
      },
    },
    { status: 400 },
  );
const down = () =>
  Response.json(
    { error: { code: "site_unavailable", message: "The site is not available right now. Please try again in a moment." } },
    { status: 503 },
  );

/**
 * The BFF's Orders route as the browser meets it: `answers` maps each path asked for to its answers in
 * turn (the last one repeats). Returns the paths asked for, in order.
 */
function serveOrders(answers: Record<string, (() => Response)[]>): string[] {
  const asked: string[] = [];
  const served = new Map<string, number>();
  vi.stubGlobal(
    "fetch",
    vi.fn((input: string) => {
      asked.push(input);
      const queue = answers[input];
      if (!queue) throw new Error(`unexpected request ${input}`);
      const index = served.get(input) ?? 0;
      served.set(input, index + 1);
      const answer = queue[Math.min(index, queue.length - 1)];
      if (!answer) throw new Error(`no answer for ${input}`);
      return Promise.resolve(answer());
    }),
  );
  return asked;
}

function renderOrders() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderInLocale(createElement(QueryClientProvider, { client: queryClient }, createElement(OrdersView)));
}

const orderHeadings = () => screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);

async function showMore(): Promise<void> {
  fireEvent.click(await screen.findByRole("button", { name: "Show more" }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("Show more when the site refuses the next page", () => {
  it.each([
    ["the site", refused],
    ["the dashboard", notOurs],
  ])("refused by %s: reads the list again from the top, then the next page with the fresh cursor", async (_by, refusal) => {
    const asked = serveOrders({
      "/api/account/orders": [() => Response.json(page(NEWEST, "expired")), () => Response.json(page(NEWEST, "fresh"))],
      "/api/account/orders?after=expired": [refusal],
      "/api/account/orders?after=fresh": [() => Response.json(page(OLDEST, null))],
    });
    renderOrders();
    await showMore();
    await waitFor(() => expect(orderHeadings()).toEqual(["Order T-3", "Order T-2", "Order T-1"]));
    expect(asked).toEqual([
      "/api/account/orders",
      "/api/account/orders?after=expired",
      "/api/account/orders",
      "/api/account/orders?after=fresh",
    ]);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
  });

  it("a refusal that outlasts the fresh read is shown with Retry, and nothing more is asked on its own", async () => {
    const asked = serveOrders({
      "/api/account/orders": [() => Response.json(page(NEWEST, "c"))],
      "/api/account/orders?after=c": [refused],
    });
    renderOrders();
    await showMore();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The site could not answer this request.");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toEqual(["/api/account/orders", "/api/account/orders?after=c", "/api/account/orders", "/api/account/orders?after=c"]);
    expect(orderHeadings()).toEqual(["Order T-3", "Order T-2"]);
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
  });

  it("when the fresh read fails, that failure is shown in place of Show more, the loaded orders kept", async () => {
    const asked = serveOrders({
      "/api/account/orders": [() => Response.json(page(NEWEST, "expired")), down],
      "/api/account/orders?after=expired": [refused],
    });
    renderOrders();
    await showMore();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The site is not available right now.");
    expect(asked).toEqual(["/api/account/orders", "/api/account/orders?after=expired", "/api/account/orders"]);
    expect(orderHeadings()).toEqual(["Order T-3", "Order T-2"]);
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
  });

  it("any other failure of the next page is shown at once, without reading the list again", async () => {
    const asked = serveOrders({
      "/api/account/orders": [() => Response.json(page(NEWEST, "c"))],
      "/api/account/orders?after=c": [down],
    });
    renderOrders();
    await showMore();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The site is not available right now.");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toEqual(["/api/account/orders", "/api/account/orders?after=c"]);
  });
});

describe("Show more on a list that changed between its pages", () => {
  it("an order repeated at the seam (one placed meanwhile, on a site that pages by position) is shown once", async () => {
    const placedMeanwhile = [paidOrder("T-2", "2026-11-02T00:00:00Z"), ...OLDEST];
    serveOrders({
      "/api/account/orders": [() => Response.json(page(NEWEST, "c"))],
      "/api/account/orders?after=c": [() => Response.json(page(placedMeanwhile, null))],
    });
    renderOrders();
    await showMore();
    await waitFor(() => expect(orderHeadings()).toEqual(["Order T-3", "Order T-2", "Order T-1"]));
  });
});
