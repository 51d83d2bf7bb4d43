import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import type { CoursesPage, EventsPage, OrdersPage, Overview } from "@/lib/types/account";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });

/**
 * A site whose lists may hold items it cannot give (sandbox knob `graphqlUnavailableItems`: the items of its
 * lists are nullable, as GitHub's are, and a named item comes back null with an error naming it): every page
 * shows the rest and counts what is missing, over real HTTP through the data routes, at the sandbox's page
 * size and at a cap of two items per page (the missing items then fill whole pages of the site's own).
 */
describe.each([{ maxPageSize: 100 }, { maxPageSize: 2 }])(
  "items the site cannot give, pages of at most $maxPageSize",
  ({ maxPageSize }) => {
    let sandbox: RunningSandbox;
    const browser = new RouteBrowser();

    async function page<T>(resource: string): Promise<T> {
      const response = await accountRoute(browser.request(`/api/account/${resource}`), params(resource));
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    }

    beforeAll(async () => {
      sandbox = await startSandboxForDashboard({ maxPageSize });
      await signInThroughRoutes(browser, { email: "maya@example.com" });
    });
    afterAll(async () => sandbox.close());
    beforeEach(() => sandbox.setKnobs({ graphqlUnavailableItems: [] }));

    it("courses, orders, events and the overview show the rest and say how many the site could not give", async () => {
      const [courses, orders, events] = [
        await page<CoursesPage>("courses"),
        await page<OrdersPage>("orders"),
        await page<EventsPage>("events"),
      ];
      expect(courses.items.length).toBeGreaterThanOrEqual(4);
      expect(courses).not.toHaveProperty("itemsUnavailable");
      // Two courses in a row (a whole page at a cap of two), an order and a registration.
      const gone = [courses.items[0]!.slug, courses.items[1]!.slug, orders.items[0]!.id, events.items[0]!.id];
      sandbox.setKnobs({ graphqlUnavailableItems: gone });

      const fewerCourses = await page<CoursesPage>("courses");
      expect(fewerCourses.items.map((course) => course.slug)).toEqual(courses.items.slice(2).map((course) => course.slug));
      expect(fewerCourses).toMatchObject({ totalCount: courses.totalCount, itemsUnavailable: 2 });
      const fewerOrders = await page<OrdersPage>("orders");
      expect(fewerOrders.items.map((order) => order.id)).not.toContain(gone[2]);
      expect(fewerOrders.itemsUnavailable).toBe(1);
      const fewerEvents = await page<EventsPage>("events");
      expect(fewerEvents.items.map((registration) => registration.id)).toEqual(
        events.items.slice(1).map((registration) => registration.id),
      );
      expect(fewerEvents.itemsUnavailable).toBe(1);
      const overview = await page<Overview>("overview");
      expect(overview).toMatchObject({ coursesUnavailable: 2, registrationsUnavailable: 1 });
      expect(overview.continueWatching.map((course) => course.slug)).not.toContain(gone[0]);
    });
  },
);
