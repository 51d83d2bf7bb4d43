"use client";

/** Loads the next page of a list; says when it is busy. */
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
      <button type="button" className="btn btn-secondary w-full sm:w-auto" onClick={onClick} disabled={loading} aria-busy={loading}>
        {loading ? loadingLabel : label}
      </button>
    </div>
  );
}
