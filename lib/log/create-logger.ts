/**
 * How every logger of this project is made (the dashboard's server and the launcher): pino JSON lines
 * with an ISO time and a textual level. Deliberately free of configuration and of `server-only`, so the
 * launcher can log before the configuration is known to be valid.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

import type { LogLevel } from "@/lib/config/env-schema";

/**
 * A second net, not the rule (nothing may pass a secret to a logger): these field names are censored at
 * any depth pino can express, in a named event's fields and one level below.
 */
const SECRET_FIELDS = [
  "access_token",
  "accessToken",
  "refresh_token",
  "refreshToken",
  "id_token",
  "idToken",
  "code",
  "code_verifier",
  "codeVerifier",
  "verifier",
  "client_secret",
  "clientSecret",
  "password",
  "cookie",
  "authorization",
  "set-cookie",
];
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [`["${field}"]`, `*["${field}"]`]);

export function createLogger(options: {
  level: LogLevel;
  service: string;
  destination?: DestinationStream;
  mixin?: LoggerOptions["mixin"];
}): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      ...(options.mixin ? { mixin: options.mixin } : {}),
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
