/**
 * A determinate progress bar (0..100) with an accessible name and its value in words beside it; under it
 * when beside it the bar would be narrower than 3rem (a phone with text at 200 %), not a bar of no width.
 */
export function ProgressBar({ value, label, valueText }: { value: number; label: string; valueText: string }) {
  const clamped = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={valueText}
        className="h-2 min-w-[3rem] flex-1 overflow-hidden rounded-full bg-progress-track"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${clamped}%` }} />
      </div>
      <span className="text-sm text-fg-muted tabular-nums" aria-hidden="true">
        {valueText}
      </span>
    </div>
  );
}
