import { interpolate } from "@/lib/i18n";

/**
 * How many items of a list the site listed but could not give (Page's `itemsUnavailable`), in the list's
 * words: the member knows the list is not whole. Nothing when there are none.
 */
export function UnavailableItems({ count, words }: { count: number; words: { unavailableOne: string; unavailable: string } }) {
  if (count === 0) return null;
  return (
    <p className="mb-4 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg">
      {count === 1 ? words.unavailableOne : interpolate(words.unavailable, { count })}
    </p>
  );
}
