/**
 * How many pages of a list read in pages (Orders, Events, and Courses past its first 500 enrollments) its
 * page shows, kept in the URL (`?pages=3`, which "Show more" leaves): the server renders that many in the
 * first HTML, so a reload, Back from the site, and a press of "Show more" before the page is interactive (a
 * GET form to that URL) find the list as long as it was. Client-safe.
 */
import { countInQuery, type QueryValues } from "./query-values";

export const SHOWN_PAGES_PARAM = "pages";

/**
 * The most pages a URL can ask the server for: each is one or more requests to the site, all within the
 * page view's one deadline. A longer list comes back this long, and "Show more" reads on from there.
 */
export const MAX_SHOWN_PAGES = 5;

/** The pages a URL's `pages` asks for: a whole number from 1 to {@link MAX_SHOWN_PAGES}; 1 when missing or not a number. */
export function parseShownPages(query: QueryValues): number {
  return countInQuery(query, SHOWN_PAGES_PARAM, 1, MAX_SHOWN_PAGES);
}

/** The query string of a page showing `pages` pages of its list: none for the first alone. */
export function shownPagesQuery(pages: number): string {
  return pages > 1 ? `?${SHOWN_PAGES_PARAM}=${Math.floor(pages)}` : "";
}
