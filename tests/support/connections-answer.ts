import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ComponentType } from "react";
import { vi } from "vitest";

import { SiteInfoProvider } from "@/components/layout/site-info";

import { renderInLocale } from "./render-ui";

/**
 * Renders a Settings component that reads `GET /api/account/connections`, with the BFF answering `answer()`
 * (asked on each request, so a test may change it as it goes) and any other path 404, for the site
 * "Northwind Academy". Returns the fetch spy and the query client.
 */
export function renderWithConnections(
  component: ComponentType,
  answer: () => Response,
  locale: "en" | "zh-TW" = "en",
): { fetchSpy: ReturnType<typeof vi.fn>; queryClient: QueryClient } {
  const fetchSpy = vi.fn((input: string) =>
    Promise.resolve(input === "/api/account/connections" ? answer() : new Response(null, { status: 404 })),
  );
  vi.stubGlobal("fetch", fetchSpy);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = createElement(QueryClientProvider, { client: queryClient }, createElement(component));
  renderInLocale(createElement(SiteInfoProvider, { site: { name: "Northwind Academy", url: "https://school.example.com" } }, tree), locale);
  return { fetchSpy, queryClient };
}
