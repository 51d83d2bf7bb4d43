"use client";

import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

import { usePageUrl } from "@/components/layout/offline-navigation";
import { useFirstNewItemFocus, type NewItemFocusProps } from "@/lib/client/first-new-item-focus";
import { MAX_SHOWN_PAGES, shownPagesQuery } from "@/lib/contract/shown-pages";
import { useI18n } from "@/lib/i18n/provider";

import { EmptyState } from "./empty-state";
import { ErrorPanel } from "./error-panel";
import { LoadingState } from "./loading-state";
import { listedItemId, ShowMoreButton } from "./show-more-button";
import { UnavailableItems } from "./unavailable-items";

/** The parts of a React Query infinite query that a paged list reads. */
export interface PagedQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  /** The pages read so far, each with how many of its items the site could not give. */
  data?: { pages: readonly { items: readonly T[]; itemsUnavailable?: number }[] };
}

/** What the element of one listed item takes: focus after "Show more", and its position as its id. */
export interface PagedItemProps extends NewItemFocusProps {
  id: string;
}

/**
 * The body of a page that lists one paged query: loading, its own error with Retry, the empty state
 * (with its next step, `emptyAction`), or the items with "Show more" (and the next page's error with
 * Retry in its place when that fails). `items` come in the order shown, `keyOf` names each: "Show more"
 * moves focus to the first item it adds (children give each item's element `itemProps(item)`, which also
 * carries its id: its place in the order the site sent the items, `siteOrder` when the view shows them in
 * another). The URL keeps how many pages are shown (`?pages=3`, lib/contract/shown-pages.ts), and "Show
 * more" is a GET form to the next count, with the first position it adds as the fragment: a press before
 * the page is interactive loads the longer list from the server, which the browser shows at the item it
 * added that the view shows first, wherever the view sorts it (landingOnFirstAdded). `showMore: "children"`:
 * the items' own view shows more (Courses steps through what it holds before it asks the site for the rest).
 * Items the site listed but could not give are counted above the list, in the list's words (`texts`).
 */
export function PagedQueryBody<T>({
  query,
  items,
  siteOrder = items,
  keyOf,
  texts,
  emptyAction,
  showMore = "pages",
  children,
}: {
  query: PagedQuery<T>;
  items: T[];
  siteOrder?: T[];
  keyOf: (item: T) => string;
  texts: {
    error: string;
    empty: string;
    emptyBody?: string;
    showMore: string;
    loadingMore: string;
    unavailableOne: string;
    unavailable: string;
  };
  emptyAction?: ReactNode;
  showMore?: "pages" | "children";
  children: (items: T[], itemProps: (item: T) => PagedItemProps) => ReactNode;
}) {
  const { messages } = useI18n();
  const path = usePathname();
  const { replaceQuery } = usePageUrl();
  const keys = items.map(keyOf);
  const { markShown, focusProps } = useFirstNewItemFocus(keys);
  const positions = landingOnFirstAdded(query.data?.pages ?? [], items, siteOrder, keyOf);
  const itemProps = (item: T): PagedItemProps => {
    const key = keyOf(item);
    return { ...focusProps(key), id: listedItemId(positions.get(key) ?? 0) };
  };
  const nextPageCount = (query.data?.pages.length ?? 1) + 1;
  const unavailableCount = (query.data?.pages ?? []).reduce((sum, page) => sum + (page.itemsUnavailable ?? 0), 0);
  const unavailable = (
    <UnavailableItems count={unavailableCount} words={texts} onRetry={() => void query.refetch()} retrying={query.isFetching} />
  );
  if (query.isPending) return <LoadingState label={messages.app.loading} />;
  if (query.isError && items.length === 0) {
    return <ErrorPanel title={texts.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  // With every item listed gone, the list is not empty: the member reads how many the site could not give.
  if (items.length === 0)
    return unavailableCount > 0 ? unavailable : <EmptyState title={texts.empty} body={texts.emptyBody} action={emptyAction} />;
  if (showMore === "children")
    return (
      <>
        {unavailable}
        {children(items, itemProps)}
      </>
    );
  return (
    <>
      {unavailable}
      {children(items, itemProps)}
      {query.isFetchNextPageError ? (
        <div className="mt-6">
          <ErrorPanel
            title={texts.error}
            error={query.error}
            onRetry={() => void query.fetchNextPage()}
            retrying={query.isFetchingNextPage}
          />
        </div>
      ) : query.hasNextPage ? (
        <ShowMoreButton
          onClick={() => {
            markShown();
            replaceQuery(shownPagesQuery(nextPageCount));
            void query.fetchNextPage();
          }}
          loading={query.isFetchingNextPage}
          label={texts.showMore}
          loadingLabel={texts.loadingMore}
          opensBeforeHydration={
            nextPageCount <= MAX_SHOWN_PAGES
              ? { action: `${path}#${listedItemId(items.length + 1)}`, query: shownPagesQuery(nextPageCount) }
              : undefined
          }
        />
      ) : null}
    </>
  );
}

/**
 * Each item's id position: its place in the order the site sent the items, but for one swap. "Show more"
 * before the page is interactive lands on `#item-<first position the press adds>`; among the items the last
 * page read added, the one shown first takes that position (the one it names in site order takes the other's
 * place), so an early press lands where a hydrated one moves focus (lib/client/first-new-item-focus.ts).
 */
function landingOnFirstAdded<T>(
  pages: readonly { items: readonly T[] }[],
  shown: readonly T[],
  siteOrder: readonly T[],
  keyOf: (item: T) => string,
): Map<string, number> {
  const positions = new Map(siteOrder.map((item, index) => [keyOf(item), index + 1]));
  if (pages.length < 2) return positions;
  const earlier = new Set(pages.slice(0, -1).flatMap((page) => page.items.map(keyOf)));
  const firstAdded = shown.map(keyOf).find((key) => !earlier.has(key));
  const landing = siteOrder[earlier.size];
  if (firstAdded === undefined || landing === undefined) return positions;
  positions.set(keyOf(landing), positions.get(firstAdded) ?? 0);
  positions.set(firstAdded, earlier.size + 1);
  return positions;
}
