import type { FakeSite } from "./fake-site";

/** A connection of `nodes`, all on one page, with their count as its total. */
export function onePageOf<T>(nodes: T[]) {
  return { totalCount: nodes.length, pageInfo: { hasNextPage: false, endCursor: null }, nodes };
}

/** The fake site answers every Account API query with `viewer`: each page's query reads its own fields of it. */
export function siteAnswersWithViewer(site: FakeSite, viewer: Record<string, unknown>): void {
  site.handlers.set("POST /account/graphql", () => ({ json: { data: { viewer } } }));
}
