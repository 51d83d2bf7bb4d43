import { setLogDestinationForTests } from "@/lib/log/logger";

/** Sends the dashboard's pino lines (lib/log/logger.ts) to memory: what stdout would have received. */
export function captureLog(): { lines: string[]; text: () => string; events: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  setLogDestinationForTests({ write: (line: string) => void lines.push(line) });
  return {
    lines,
    text: () => lines.join(""),
    events: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
