/**
 * What `npm run bench` is doing, as it does it: a phase line, then "round N of M" lines, each with the
 * time since the benchmark started, so nobody stares at a silent terminal for minutes.
 */
const started = performance.now();

function elapsed(): string {
  const seconds = Math.round((performance.now() - started) / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

export function phase(title: string): void {
  console.info(`[${elapsed()}] ${title}`);
}

export function progress(detail: string, index: number, total: number, unit = "round"): void {
  console.info(`[${elapsed()}]   ${detail}: ${unit} ${index} of ${total}`);
}
