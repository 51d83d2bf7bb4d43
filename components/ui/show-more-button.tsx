"use client";

import { FormBeforeHydration } from "./form-before-hydration";

/**
 * Where a press opens while the page is not interactive yet (a slow phone): a GET form's `action` (a path
 * with the fragment to land on) and the query it sends.
 */
export interface OpensBeforeHydration {
  action: string;
  query: string;
}

/**
 * The id of a list's item at `position` (1 for the first), on every list with Show more: the fragment of
 * `opensBeforeHydration`'s action, where a press before the page is interactive lands.
 */
export function listedItemId(position: number): string {
  return `item-${position}`;
}

/**
 * Loads the next page of a list; says when it is busy. While it loads the button stays focusable
 * (aria-disabled, not disabled: a disabled button loses focus to the top of the page) and a press does nothing.
 * With `opensBeforeHydration`, the button submits a GET form to that address, so a press before the page's
 * scripts have run loads the longer list from the server; once they have, the form never leaves the page.
 */
export function ShowMoreButton({
  onClick,
  loading,
  label,
  loadingLabel,
  opensBeforeHydration,
}: {
  onClick: () => void;
  loading: boolean;
  label: string;
  loadingLabel: string;
  opensBeforeHydration?: OpensBeforeHydration;
}) {
  const press = loading ? undefined : onClick;
  const button = (
    <button
      type={opensBeforeHydration ? "submit" : "button"}
      className="btn btn-secondary w-full aria-disabled:cursor-progress aria-disabled:opacity-70 sm:w-auto"
      onClick={opensBeforeHydration ? undefined : press}
      aria-disabled={loading || undefined}
      aria-busy={loading}
    >
      {loading ? loadingLabel : label}
    </button>
  );
  if (!opensBeforeHydration) return <div className="mt-6 flex justify-center">{button}</div>;
  return (
    <FormBeforeHydration
      action={opensBeforeHydration.action}
      query={new URLSearchParams(opensBeforeHydration.query)}
      onSubmit={() => press?.()}
      className="mt-6 flex justify-center"
    >
      {button}
    </FormBeforeHydration>
  );
}
