import { interpolate } from "@/lib/i18n";
import { RetryButton, type RetryAction } from "./retry-button";

/**
 * How many items of a list the site listed but could not give (Page's `itemsUnavailable`), in the list's
 * words: the member knows the list is not whole. With `onRetry`, Retry asks the site again: a failure behind
 * one item may pass. Nothing when there are none.
 */
export function UnavailableItems({
  count,
  words,
  onRetry,
  retrying = false,
}: {
  count: number;
  words: { unavailableOne: string; unavailable: string };
} & Partial<RetryAction>) {
  if (count === 0) return null;
  return (
    <div
      className={
        "mb-4 flex flex-wrap items-center justify-between gap-x-3 gap-y-2 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg"
      }
    >
      <p>{count === 1 ? words.unavailableOne : interpolate(words.unavailable, { count })}</p>
      {onRetry ? <RetryButton onRetry={onRetry} retrying={retrying} /> : null}
    </div>
  );
}
