/** A determinate progress bar (0..100) with an accessible name and its value in words beside it. */
export function ProgressBar({ value, label, valueText }: { value: number; label: string; valueText: string }) {
  const clamped = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={valueText}
        className="h-2 flex-1 overflow-hidden rounded-full bg-progress-track"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${clamped}%` }} />
      </div>
      <span className="shrink-0 text-sm text-fg-muted tabular-nums" aria-hidden="true">
        {valueText}
      </span>
    </div>
  );
}
