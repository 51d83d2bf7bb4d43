import "server-only";

import pino, { type Logger } from "pino";

/**
 * The dashboard's one logger: JSON lines on stdout (pino), level from LOG_LEVEL (default `info`).
 * Named events carry an `event` field; nothing here may ever receive a token, an authorization code,
 * a client secret, a cookie value, a PKCE verifier or a password. `redact` is a second net, not the rule.
 */
export type LogEventName =
  | "request"
  | "sign_in_succeeded"
  | "sign_in_failed"
  | "token_refreshed"
  | "refresh_failed"
  | "signed_out"
  | "access_revoked"
  | "revocation_failed"
  | "csrf_refused"
  | "session_rejected"
  | "site_error"
  | "shared_state_error"
  | "unexpected_error";

const LEVELS = new Set(["debug", "info", "warn", "error"]);

function createLogger(destination?: pino.DestinationStream): Logger {
  const wanted = process.env.LOG_LEVEL ?? "info";
  const options: pino.LoggerOptions = {
    level: LEVELS.has(wanted) ? wanted : "info",
    base: { service: "dashboard" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ["*.access_token", "*.refresh_token", "*.id_token", "*.code", "*.code_verifier", "*.client_secret", "*.password", "*.cookie", "*.authorization"],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

let instance: Logger | undefined;

export function getLogger(): Logger {
  instance ??= createLogger();
  return instance;
}

/** Tests only: the log lines go to `destination` (to read what would reach stdout). */
export function setLogDestinationForTests(destination: pino.DestinationStream): void {
  instance = createLogger(destination);
}

/** Logs one named event with its fields (never a secret value). */
export function logEvent(event: LogEventName, fields: Record<string, unknown> = {}, level: "debug" | "info" | "warn" | "error" = "info"): void {
  getLogger()[level]({ event, ...fields });
}

/** Cuts a foreign string (the site's error message) short; JSON serialisation escapes it. */
export function truncateForLog(value: string | undefined, max = 200): string | undefined {
  if (value === undefined) return undefined;
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
