/**
 * How the launcher (scripts/start.ts, `npm start` and `npm run dev`) prints the lines of the dashboard and its
 * own: JSON lines for a pipeline (a pipe, a container, CI), or human lines for a terminal (pino-pretty: time,
 * level, event, message, the other fields on the same line) with Next.js's own output as Next.js prints it.
 * LOG_FORMAT=json|pretty overrides the choice. Every line is formatted from the JSON line the logger already
 * wrote, after its redaction (lib/log/create-logger.ts): the pretty form never shows more than the JSON one.
 * Free of `server-only`, like create-logger.ts, for the launcher.
 */
import { prettyFactory } from "pino-pretty";

import { parseLogFormat, type EnvInput, type LogFormat } from "../config/env-schema";

/** LOG_FORMAT when set; otherwise pretty when stdout is a terminal, JSON lines when it is not. */
export function resolveLogFormat(env: EnvInput, stdoutIsTerminal: boolean): LogFormat {
  return parseLogFormat(env) ?? (stdoutIsTerminal ? "pretty" : "json");
}

/** One JSON log line (with or without its newline) as one human line, ending in a newline. */
export type LineFormatter = (jsonLine: string) => string;

export function prettyLineFormatter(options: { colorize: boolean }): LineFormatter {
  const prettify = prettyFactory({
    colorize: options.colorize,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "pid,hostname,service,event",
    messageFormat: "{if event}{event}{end}{if msg} {msg}{end}",
  });
  return (jsonLine) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(jsonLine);
    } catch {
      return `${jsonLine.trimEnd()}\n`;
    }
    return prettify(parsed);
  };
}

/** True for a line the logger wrote (one JSON object), false for a line a program printed itself. */
export function isJsonLogLine(line: string): boolean {
  return line.startsWith("{") && line.endsWith("}");
}
