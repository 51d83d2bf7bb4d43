/**
 * `npm run doctor -- --site <url>`: checks that a site offers what the dashboard needs (discovery, PKCE,
 * client authentication, scopes, id_token or UserInfo, revocation, Account API, MCP) and prints a checklist.
 * Anonymous requests only: no token or secret is involved.
 *
 * Exit code: 0 when nothing failed, 1 when a check failed, 2 on bad command-line usage.
 */
import { parseArgs } from "node:util";

import { redisSentinelName, redisSentinels, type RedisNodeAddress } from "../lib/config/env-schema";

import { parseOrigin } from "./doctor/checks";
import { formatJson, formatText } from "./doctor/report";
import { DEFAULT_APP_URL, DEFAULT_TIMEOUT_MS, hasFailure, runDoctor } from "./doctor/run";

const MAX_TIMEOUT_MS = 120_000;

const USAGE = `Usage: npm run doctor -- --site <url> [--client-id <id>] [--app-url <url>] [--timeout-ms N] [--json]
       [--redis-sentinels <host:port,...> --redis-sentinel-name <name>]

Checks a site as the member companion dashboard needs it and prints PASS, WARN or FAIL per check.

  --site <url>        the site's origin, as in SITE_URL (required)
  --issuer <url>      the site's issuer as its metadata writes it, as in SITE_ISSUER: the origin followed by "/"
                      (default: the origin)
  --client-id <id>    the member client the operator created; checks the site knows it and the redirect URI
  --app-url <url>     the dashboard's public origin, as in APP_URL (default ${DEFAULT_APP_URL})
  --timeout-ms N      time limit of each request in milliseconds (default ${DEFAULT_TIMEOUT_MS})
  --redis-sentinels <host:port,...>, --redis-sentinel-name <name>
                      as REDIS_SENTINELS and REDIS_SENTINEL_NAME: checks that the Sentinels agree on a primary
                      that answers and has a replica
  --json              print the checks as JSON
  --help              show this help

Exit code: 0 when no check failed, 1 when one failed, 2 on bad usage.
`;

class UsageError extends Error {}

interface Arguments {
  site: string;
  issuer: string | undefined;
  clientId: string | undefined;
  appUrl: string;
  timeoutMs: number;
  json: boolean;
  redisSentinel: { sentinels: RedisNodeAddress[]; name: string } | undefined;
}

function parseCommandLine(argv: string[]): Arguments | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        site: { type: "string" },
        issuer: { type: "string" },
        "client-id": { type: "string" },
        "app-url": { type: "string" },
        "timeout-ms": { type: "string" },
        json: { type: "boolean", default: false },
        "redis-sentinels": { type: "string" },
        "redis-sentinel-name": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : "invalid arguments");
  }
  if (values.help) return "help";
  if (values.site === undefined || values.site.trim() === "") throw new UsageError("--site is required");
  const clientId = values["client-id"];
  if (clientId !== undefined && clientId.trim() === "") throw new UsageError("--client-id must not be empty");
  let appUrl = DEFAULT_APP_URL;
  if (values["app-url"] !== undefined) {
    const parsed = parseOrigin(values["app-url"]);
    if (!parsed.ok) throw new UsageError(`--app-url: ${parsed.reason}`);
    appUrl = parsed.origin;
  }
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (values["timeout-ms"] !== undefined) {
    const text = values["timeout-ms"];
    timeoutMs = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
      throw new UsageError(`--timeout-ms must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
    }
  }
  let redisSentinel: Arguments["redisSentinel"];
  if (values["redis-sentinels"] !== undefined || values["redis-sentinel-name"] !== undefined) {
    const sentinels = redisSentinels.safeParse(values["redis-sentinels"] ?? "");
    const name = redisSentinelName.safeParse(values["redis-sentinel-name"] ?? "");
    if (!sentinels.success) throw new UsageError(`--redis-sentinels ${sentinels.error.issues[0]?.message ?? "is invalid"}`);
    if (!name.success) throw new UsageError(`--redis-sentinel-name ${name.error.issues[0]?.message ?? "is required"}`);
    redisSentinel = { sentinels: sentinels.data, name: name.data };
  }
  return {
    site: values.site.trim(),
    issuer: values.issuer?.trim(),
    clientId: clientId?.trim(),
    appUrl,
    timeoutMs,
    json: values.json,
    redisSentinel,
  };
}

async function main(argv: string[]): Promise<number> {
  let args: Arguments | "help";
  try {
    args = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`doctor: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const report = await runDoctor({
    site: args.site,
    issuer: args.issuer,
    clientId: args.clientId,
    appUrl: args.appUrl,
    timeoutMs: args.timeoutMs,
    redisSentinel: args.redisSentinel,
  });
  process.stdout.write(args.json ? formatJson(report) : formatText(report));
  return hasFailure(report) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Never a stack trace: one line, then the failure exit code.
    process.stderr.write(`doctor: unexpected error: ${error instanceof Error ? error.message : "unknown"}\n`);
    process.exitCode = 1;
  },
);
