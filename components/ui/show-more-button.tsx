"use client";

/**
 * Loads the next page of a list; says when it is busy. While it loads the button stays focusable
 * (aria-disabled, not disabled: a disabled button loses focus to the top of the page) and a press does nothing.
 */
export function ShowMoreButton({
  onClick,
  loading,
  label,
  loadingLabel,
}: {
  onClick: () => void;
  loading: boolean;
  label: string;
  loadingLabel: string;
}) {
  return (
    <div className="mt-6 flex justify-center">
      <button
        type="button"
        className="btn btn-secondary w-full aria-disabled:cursor-progress aria-disabled:opacity-70 sm:w-auto"
        onClick={loading ? undefined : onClick}
        aria-disabled={loading || undefined}
        aria-busy={loading}
      >
        {loading ? loadingLabel : label}
      </button>
    </div>
  );
}
