"use client";

import type { ReactNode } from "react";

import { useFirstNewItemFocus, type NewItemFocusProps } from "@/lib/client/first-new-item-focus";
import { useI18n } from "@/lib/i18n/provider";

import { EmptyState } from "./empty-state";
import { ErrorPanel } from "./error-panel";
import { LoadingState } from "./loading-state";
import { ShowMoreButton } from "./show-more-button";

/** The parts of a React Query infinite query that a paged list reads. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The body of a page that lists one paged query: loading, its own error with Retry, the empty state
 * (with its next step, `emptyAction`), or the items with "Show more" (and the next page's error with
 * Retry in its place when that fails). `items` come in the order shown, `keyOf` names each: "Show more"
 * moves focus to the first item it adds (children give each item's element `focusProps(item)`).
 * `showMore: "children"`: the items' own view shows more (Courses steps through what it holds before it
 * asks the site for the rest).
 */
export function PagedQueryBody<T>({
  query,
  items,
  keyOf,
  texts,
  emptyAction,
  showMore = "pages",
  children,
}: {
  query: PagedQuery;
  items: T[];
  keyOf: (item: T) => string;
  texts: { error: string; empty: string; emptyBody?: string; showMore: string; loadingMore: string };
  emptyAction?: ReactNode;
  showMore?: "pages" | "children";
  children: (items: T[], focusProps: (item: T) => NewItemFocusProps) => ReactNode;
}) {
  const { messages } = useI18n();
  const { markShown, focusProps } = useFirstNewItemFocus(items.map(keyOf));
  const itemFocusProps = (item: T) => focusProps(keyOf(item));
  if (query.isPending) return <LoadingState label={messages.app.loading} />;
  if (query.isError && items.length === 0) {
    return <ErrorPanel title={texts.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (items.length === 0) return <EmptyState title={texts.empty} body={texts.emptyBody} action={emptyAction} />;
  if (showMore === "children") return children(items, itemFocusProps);
  return (
    <>
      {children(items, itemFocusProps)}
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
            void query.fetchNextPage();
          }}
          loading={query.isFetchingNextPage}
          label={texts.showMore}
          loadingLabel={texts.loadingMore}
        />
      ) : null}
    </>
  );
}
