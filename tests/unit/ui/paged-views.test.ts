// @vitest-environment happy-dom
/**
 * The paged lists as the browser renders them from the BFF's answers.
 *
 * Keyboard focus after "Show more" (WCAG 2.2 SC 2.4.3): while the next page loads the button keeps focus
 * (aria-disabled, never disabled), and once it arrives the first item it added, in the order the page shows
 * them, takes focus, including when the button then goes away because nothing is left to load. Orders,
 * Events (where a new registration may sort into Upcoming, above the older ones) and Courses past the
 * courses the server loaded.
 *
 * Courses with none to show says what might find one, and not before a search has read every course.
 */
import { act, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type FunctionComponent } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { CoursesView } from "@/components/courses/courses-view";
import { EventsView } from "@/components/events/events-view";
import { OrdersView } from "@/components/orders/orders-view";
import { useFirstNewItemFocus } from "@/lib/client/first-new-item-focus";
import { MAX_SHOWN_PAGES } from "@/lib/contract/shown-pages";
import type { EventRegistration } from "@/lib/types/account";

import { WATERCOLOUR_COURSE } from "../../support/course-fixture";
import { atFixedTime } from "../../support/fixed-clock";
import { paidOrder } from "../../support/order-fixture";
import { renderInLocale } from "../../support/render-ui";

// Courses keeps its choice in the URL's query, which the router gives; here the page's address has none.
const navigation = vi.hoisted(() => ({ query: new URLSearchParams() }));
vi.mock("next/navigation", () => ({
  useSearchParams: () => navigation.query,
  usePathname: () => "/courses",
  useRouter: () => ({ push: () => undefined }),
}));

const NOW = Date.parse("2026-12-10T00:00:00Z");

function registration(id: string, startTime: string): EventRegistration {
  return {
    id,
    state: "enrolled",
    registeredAt: null,
    event: { id: `e-${id}`, title: `Event ${id}`, startTime, endTime: null, isAllDay: false, location: null, url: null },
  };
}

const course = (slug: string) => ({ ...WATERCOLOUR_COURSE, slug, name: `Course ${slug}` });

/** The BFF's route as the browser meets it: each path asked for answers its page; the next page waits for `release`. */
function serve(pages: Record<string, unknown>, heldPath: string): { release: () => Promise<void> } {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const page = pages[input];
      if (page === undefined) throw new Error(`unexpected request ${input}`);
      if (input === heldPath) await held;
      return Response.json(page);
    }),
  );
  // The held answer arrives, and React has rendered what it brings.
  const release = () =>
    act(() => {
      answer();
      return Promise.resolve();
    });
  return { release };
}

function renderView(view: FunctionComponent, timeZone?: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderInLocale(createElement(QueryClientProvider, { client: queryClient }, createElement(view)), "en", { now: NOW, timeZone });
}

/** How many times the page asked the BFF for `path`. */
function requestsFor(path: string): number {
  return vi.mocked(fetch).mock.calls.filter(([input]) => input === path).length;
}

/** Three orders, the last on the site's second page. */
const ORDERS_IN_TWO_PAGES = {
  "/api/account/orders": {
    items: [paidOrder("T-3", "2026-11-03T00:00:00Z"), paidOrder("T-2", "2026-11-02T00:00:00Z")],
    totalCount: 3,
    nextCursor: "c",
  },
  "/api/account/orders?after=c": { items: [paidOrder("T-1", "2026-11-01T00:00:00Z")], totalCount: 3, nextCursor: null },
};

/** A past registration, then on the site's second page an older past one and one still to come (it sorts first). */
const EVENTS_IN_TWO_PAGES = {
  "/api/account/events": { items: [registration("past", "2026-11-01T10:00:00Z")], totalCount: 3, nextCursor: "c" },
  "/api/account/events?after=c": {
    items: [registration("older", "2026-10-01T10:00:00Z"), registration("soon", "2026-12-20T10:00:00Z")],
    totalCount: 3,
    nextCursor: null,
  },
};

/** One more page than a URL may ask for (MAX_SHOWN_PAGES), each of one item, `itemOf(n)` on page n (0 for the first). */
function pagesOfOne(path: string, itemOf: (page: number) => unknown): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: MAX_SHOWN_PAGES + 1 }, (_, page) => [
      page === 0 ? path : `${path}?after=c${page}`,
      { items: [itemOf(page)], totalCount: MAX_SHOWN_PAGES + 1, nextCursor: page < MAX_SHOWN_PAGES ? `c${page + 1}` : null },
    ]),
  );
}

/** Presses "Show more" from the keyboard's point of view: focused, then clicked. */
async function pressShowMore(name: string | RegExp = "Show more"): Promise<HTMLElement> {
  const button = await screen.findByRole("button", { name });
  button.focus();
  fireEvent.click(button);
  return button;
}

atFixedTime(NOW);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe("focus after Show more", () => {
  it("Orders: the button keeps focus while the last page loads, then the first order it added takes it", async () => {
    const { release } = serve(ORDERS_IN_TWO_PAGES, "/api/account/orders?after=c");
    renderView(OrdersView);
    await pressShowMore();
    const loading = await screen.findByRole("button", { name: "Loading more…" });
    expect(loading.getAttribute("aria-disabled")).toBe("true");
    expect(loading.hasAttribute("disabled")).toBe(false);
    expect(document.activeElement).toBe(loading);
    await release();
    await waitFor(() => expect(screen.queryByRole("button", { name: /Show more|Loading more/ })).toBeNull());
    expect(document.activeElement?.tagName).toBe("LI");
    expect(document.activeElement?.textContent).toContain("Order T-1");
  });

  it("Events: a registration the next page adds to Upcoming, shown first, takes focus", async () => {
    const { release } = serve(EVENTS_IN_TWO_PAGES, "/api/account/events?after=c");
    renderView(EventsView);
    await pressShowMore(/^Show more/);
    await release();
    await waitFor(() => expect(document.activeElement?.tagName).toBe("LI"));
    expect(document.activeElement?.textContent).toContain("Event soon");
    expect(screen.getByRole("region", { name: "Upcoming" }).contains(document.activeElement)).toBe(true);
  });

  it("Courses past the loaded courses: the first course of the site's next page takes focus once it arrives", async () => {
    const firstPage = Array.from({ length: 3 }, (_, index) => course(`a${index}`));
    const { release } = serve(
      {
        "/api/account/courses": { items: firstPage, totalCount: 4, nextCursor: "c" },
        "/api/account/courses?after=c": { items: [course("b0")], totalCount: 4, nextCursor: null },
      },
      "/api/account/courses?after=c",
    );
    renderView(CoursesView);
    await pressShowMore();
    await release();
    await waitFor(() => expect(document.activeElement?.tagName).toBe("LI"));
    expect(document.activeElement?.textContent).toContain("Course b0");
  });
});

describe("a press while the next page loads", () => {
  it("Orders (a form): asks the site for that page once, with the first press only", async () => {
    const { release } = serve(ORDERS_IN_TWO_PAGES, "/api/account/orders?after=c");
    renderView(OrdersView);
    await pressShowMore();
    const loading = await screen.findByRole("button", { name: "Loading more…" });
    fireEvent.click(loading);
    await release();
    await screen.findByText(/Order T-1/);
    expect(requestsFor("/api/account/orders?after=c")).toBe(1);
  });

  it("Courses past the loaded courses: asks the site for that page once", async () => {
    const { release } = serve(
      {
        "/api/account/courses": { items: [course("a0")], totalCount: 2, nextCursor: "c" },
        "/api/account/courses?after=c": { items: [course("b0")], totalCount: 2, nextCursor: null },
      },
      "/api/account/courses?after=c",
    );
    renderView(CoursesView);
    await pressShowMore();
    fireEvent.click(await screen.findByRole("button", { name: "Loading more…" }));
    await release();
    await screen.findByRole("heading", { name: "Course b0" });
    expect(requestsFor("/api/account/courses?after=c")).toBe(1);
  });
});

describe("Show more before the page is interactive", () => {
  it("Orders: a GET form to the next page count, landing on the first order it adds, which has that position as its id", async () => {
    const { release } = serve(ORDERS_IN_TWO_PAGES, "/api/account/orders?after=c");
    renderView(OrdersView);
    const form = (await screen.findByRole("button", { name: "Show more" })).closest("form");
    expect(form?.getAttribute("method")).toBe("get");
    // usePathname is mocked as "/courses" in this file: the fragment is what is looked at.
    expect(form?.getAttribute("action")).toBe("/courses#item-3");
    expect([...new FormData(form!)]).toEqual([["pages", "2"]]);
    expect(document.getElementById("item-1")?.textContent).toContain("Order T-3");
    await pressShowMore();
    await release();
    await screen.findByText(/Order T-1/);
    expect(document.getElementById("item-3")?.textContent).toContain("Order T-1");
  });

  it("Orders: an order awaiting payment on the next page is shown first, and is where the early press lands", async () => {
    const awaiting = { ...paidOrder("T-0", "2026-10-01T00:00:00Z"), state: "not_paid", paidAt: null };
    const { release } = serve(
      {
        "/api/account/orders": { items: [paidOrder("T-3", "2026-11-03T00:00:00Z")], totalCount: 3, nextCursor: "c" },
        "/api/account/orders?after=c": { items: [paidOrder("T-1", "2026-11-01T00:00:00Z"), awaiting], totalCount: 3, nextCursor: null },
      },
      "/api/account/orders?after=c",
    );
    renderView(OrdersView);
    const form = (await screen.findByRole("button", { name: "Show more" })).closest("form");
    expect(form?.getAttribute("action")).toBe("/courses#item-2");
    await pressShowMore();
    await release();
    await screen.findByText(/Order T-0/);
    // The site sent T-1 second, but T-0, awaiting payment, now heads the list: the fragment lands on it.
    await waitFor(() => expect(document.activeElement?.textContent).toContain("Order T-0"));
    expect(document.getElementById("item-2")).toBe(document.activeElement);
    expect(document.getElementById("item-3")?.textContent).toContain("Order T-1");
    expect(document.getElementById("item-1")?.textContent).toContain("Order T-3");
  });

  it("Events: lands on the registration the next page adds that is shown first, where a hydrated press moves focus", async () => {
    const { release } = serve(EVENTS_IN_TWO_PAGES, "/api/account/events?after=c");
    renderView(EventsView);
    const form = (await screen.findByRole("button", { name: /^Show more/ })).closest("form");
    expect(form?.getAttribute("action")).toBe("/courses#item-2");
    await pressShowMore(/^Show more/);
    await release();
    await screen.findByRole("heading", { name: "Event soon" });
    // The site sent "Event older" second, but "Event soon" now heads Upcoming: the fragment lands on it.
    await waitFor(() => expect(document.activeElement?.textContent).toContain("Event soon"));
    expect(document.getElementById("item-2")).toBe(document.activeElement);
    expect(document.getElementById("item-3")?.textContent).toContain("Event older");
    expect(document.getElementById("item-1")?.textContent).toContain("Event past");
  });

  it(`stays a form up to ${MAX_SHOWN_PAGES} pages, the most a URL asks for; past that, a plain button`, async () => {
    serve(
      pagesOfOne("/api/account/orders", (page) => paidOrder(`T-${page}`, `2026-11-${String(20 - page).padStart(2, "0")}T00:00:00Z`)),
      "",
    );
    renderView(OrdersView);
    for (let shown = 1; shown < MAX_SHOWN_PAGES; shown++) {
      const button = await screen.findByRole("button", { name: "Show more" });
      expect([...new FormData(button.closest("form")!)], `${shown} pages shown`).toEqual([["pages", String(shown + 1)]]);
      fireEvent.click(button);
      await screen.findByText(new RegExp(`Order T-${shown}$`));
    }
    const pastTheUrl = await screen.findByRole("button", { name: "Show more" });
    expect(pastTheUrl.getAttribute("type")).toBe("button");
    expect(pastTheUrl.closest("form")).toBeNull();
  });
});

describe("Courses' Show more past the loaded courses, before and after the page is interactive", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("is a GET form to one more load of enrollments, landing on the first course it adds; pressed, the URL keeps both", async () => {
    window.history.replaceState(null, "", "/courses?sort=name");
    navigation.query = new URLSearchParams("sort=name");
    const firstLoad = Array.from({ length: 3 }, (_, index) => course(`a${index}`));
    const { release } = serve(
      {
        "/api/account/courses": { items: firstLoad, totalCount: 4, nextCursor: "c" },
        "/api/account/courses?after=c": { items: [course("b0")], totalCount: 4, nextCursor: null },
      },
      "/api/account/courses?after=c",
    );
    try {
      renderView(CoursesView);
      const form = (await screen.findByRole("button", { name: "Show more" })).closest("form");
      expect(form?.getAttribute("method")).toBe("get");
      expect(form?.getAttribute("action")).toBe("/courses#item-4");
      // The server reads two loads for that URL (app/(member)/courses/page.tsx) and lists 27 courses at most.
      expect([...new FormData(form!)]).toEqual([
        ["sort", "name"],
        ["shown", "27"],
        ["pages", "2"],
      ]);
      await pressShowMore();
      await release();
      await screen.findByRole("heading", { name: "Course b0" });
      expect(window.location.search).toBe("?sort=name&shown=27&pages=2");
      expect(document.getElementById("item-4")?.textContent).toContain("Course b0");
    } finally {
      navigation.query = new URLSearchParams();
    }
  });

  it("another choice starts again at one step of courses, and keeps the loads read", async () => {
    window.history.replaceState(null, "", "/courses?shown=27&pages=2");
    navigation.query = new URLSearchParams("shown=27&pages=2");
    serve({ "/api/account/courses": { items: [course("a0")], totalCount: 1, nextCursor: null } }, "");
    try {
      renderView(CoursesView);
      fireEvent.change(await screen.findByRole("combobox", { name: "Sort by" }), { target: { value: "name" } });
      expect(window.location.search).toBe("?sort=name&pages=2");
    } finally {
      navigation.query = new URLSearchParams();
    }
  });

  it(`stays a form up to ${MAX_SHOWN_PAGES} loads, the most a URL asks the server for; past that, a plain button`, async () => {
    serve(
      pagesOfOne("/api/account/courses", (page) => course(`p${page}`)),
      "",
    );
    renderView(CoursesView);
    for (let read = 1; read < MAX_SHOWN_PAGES; read++) {
      const button = await screen.findByRole("button", { name: "Show more" });
      expect(new FormData(button.closest("form")!).get("pages"), `${read} loads read`).toBe(String(read + 1));
      fireEvent.click(button);
      await screen.findByRole("heading", { name: `Course p${read}` });
    }
    const pastTheUrl = await screen.findByRole("button", { name: "Show more" });
    expect(pastTheUrl.getAttribute("type")).toBe("button");
    expect(pastTheUrl.closest("form")).toBeNull();
  });
});

describe("Events in the member's time zone", () => {
  it("says which time zone times are in when only past registrations are listed", async () => {
    serve({ "/api/account/events": { items: [registration("past", "2026-11-01T10:00:00Z")], totalCount: 1, nextCursor: null } }, "");
    renderView(EventsView);
    await screen.findByRole("heading", { name: "Event past" });
    expect(screen.getByText(/^Times are shown in /)).toBeTruthy();
  });

  it("lists an all-day event of the member's today under Upcoming, though that day is over in UTC", async () => {
    // NOW is 10 December 00:00 UTC: 9 December, 16:00, in Los Angeles.
    const today = { ...registration("today", "2026-12-09T00:00:00Z") };
    today.event = { ...today.event, isAllDay: true };
    serve({ "/api/account/events": { items: [today], totalCount: 1, nextCursor: null } }, "");
    // The member's time zone is the browser's, once the page runs (I18nProvider).
    vi.stubEnv("TZ", "America/Los_Angeles");
    renderView(EventsView, "America/Los_Angeles");
    await screen.findByRole("heading", { name: "Event today" });
    expect(within(screen.getByRole("region", { name: "Upcoming" })).queryByRole("heading", { name: "Event today" })).not.toBeNull();
  });
});

describe("useFirstNewItemFocus", () => {
  const takesFocus = (focus: ReturnType<typeof useFirstNewItemFocus>, key: string) => focus.focusProps(key).tabIndex === -1;

  it("gives focus to nothing until a press, and never to an item that appears later on its own", () => {
    const { result, rerender } = renderHook(({ keys }) => useFirstNewItemFocus(keys), { initialProps: { keys: ["a", "b"] } });
    // A refetch brings a new item, unasked: no focus moves.
    rerender({ keys: ["new", "a", "b"] });
    expect(["new", "a", "b"].filter((key) => takesFocus(result.current, key))).toEqual([]);
    act(() => result.current.markShown());
    rerender({ keys: ["new", "a", "b", "c", "d"] });
    expect(["new", "a", "b", "c", "d"].filter((key) => takesFocus(result.current, key))).toEqual(["c"]);
    // Another item the site adds afterwards, above: focus stays where the press put it.
    rerender({ keys: ["newer", "new", "a", "b", "c", "d"] });
    expect(["newer", "new", "a", "b", "c", "d"].filter((key) => takesFocus(result.current, key))).toEqual(["c"]);
  });
});

describe("Courses with none to show", () => {
  afterEach(() => {
    navigation.query = new URLSearchParams();
  });

  it("with no words typed, points to the other options under Show, not to other words", async () => {
    navigation.query = new URLSearchParams("show=ended");
    serve({ "/api/account/courses": { items: [course("a0")], totalCount: 1, nextCursor: null } }, "");
    renderView(CoursesView);
    expect(await screen.findByText("Choose another option under Show.")).toBeTruthy();
    expect(screen.queryByText(/Try other words/)).toBeNull();
  });

  it("with no words typed and more enrollments at the site, still points to the other options under Show", async () => {
    navigation.query = new URLSearchParams("show=ended");
    serve({ "/api/account/courses": { items: [course("a0")], totalCount: 2, nextCursor: "c" } }, "");
    renderView(CoursesView);
    expect(await screen.findByText("Choose another option under Show.")).toBeTruthy();
  });

  it("a search whose reading of the courses past the loaded ones failed: its error with Retry, no 'No course here'", async () => {
    navigation.query = new URLSearchParams("q=b0");
    let siteAnswers = false;
    vi.stubGlobal(
      "fetch",
      vi.fn((input: string) =>
        Promise.resolve(
          input === "/api/account/courses"
            ? Response.json({ items: [course("a0")], totalCount: 2, nextCursor: "c" })
            : siteAnswers
              ? Response.json({ items: [course("b0")], totalCount: 2, nextCursor: null })
              : Response.json({ error: { code: "site_unavailable", message: "The site did not answer." } }, { status: 503 }),
        ),
      ),
    );
    renderView(CoursesView);
    const retry = await screen.findByRole("button", { name: "Retry" });
    expect(screen.getByText("Your courses could not be loaded.")).toBeTruthy();
    // Not every course was read: whether one has these words is not known yet.
    expect(screen.queryByText("No course here")).toBeNull();
    siteAnswers = true;
    fireEvent.click(retry);
    expect(await screen.findByRole("heading", { name: "Course b0" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("while a search still reads the courses past the loaded ones, says nothing of no match; then shows the one found", async () => {
    navigation.query = new URLSearchParams("q=b0");
    const { release } = serve(
      {
        "/api/account/courses": { items: [course("a0")], totalCount: 2, nextCursor: "c" },
        "/api/account/courses?after=c": { items: [course("b0")], totalCount: 2, nextCursor: null },
      },
      "/api/account/courses?after=c",
    );
    renderView(CoursesView);
    await screen.findByRole("button", { name: "Loading more…" });
    expect(screen.queryByText("No course here")).toBeNull();
    await release();
    expect(await screen.findByRole("heading", { name: "Course b0" })).toBeTruthy();
  });
});
