/**
 * A playback position as a clock: "0:05", "12:34", "1:02:05". Fractions are dropped; negative or
 * non-finite input reads as "0:00".
 */
export function formatPosition(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const two = (value: number) => String(value).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

/** Whether a playback position is past the lecture's first second, so that naming it tells the student something. */
export function isPastStart(totalSeconds: number): boolean {
  return Number.isFinite(totalSeconds) && totalSeconds >= 1;
}
