import "server-only";

import { parseEnv, parseLogLevel, type AppConfig, type LogLevel } from "./env-schema";

let cached: AppConfig | undefined;

/** The one reader of the environment on the server. Validated once; a bad variable stops the app. */
export function getConfig(): AppConfig {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests only: forget the parsed configuration after changing process.env. */
export function resetConfigForTests(): void {
  cached = undefined;
}

export type { AppConfig } from "./env-schema";

/** LOG_LEVEL alone, for the logger: it must work before the whole configuration is known to be valid. */
export function configuredLogLevel(): LogLevel {
  return parseLogLevel(process.env);
}
