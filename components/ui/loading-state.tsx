/** A polite loading message with a calm skeleton. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="text-fg-muted">{label}</span>
      <div aria-hidden="true" className="grid gap-3 sm:grid-cols-2">
        <div className="skeleton h-28" />
        <div className="skeleton h-28" />
      </div>
    </div>
  );
}
