/**
 * The one reader of the sandbox's environment. Validates every variable with zod and reports every bad one at
 * once. Variables are listed in `main.ts`.
 */
import { z } from "zod";
import { ACCOUNT_API_TOKEN_REFUSALS, CONTENT_CODINGS, GRAPHQL_SERVERS, HOST_PATTERN, parseFailureList } from "./knobs";
import type { EndpointName, FailureSpec, KnobsPatch } from "./knobs";
import type { SandboxOptions } from "./state";

export class SandboxConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid sandbox configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "SandboxConfigError";
  }
}

export interface SandboxConfig {
  port: number;
  host: string;
  options: SandboxOptions;
}

const optionalInt = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(min).max(max)).optional();

const httpOrigin = z
  .url()
  .refine((value) => /^https?:\/\//.test(value), "must be an http(s) URL")
  .refine((value) => {
    const url = new URL(value);
    return url.pathname === "/" && url.search === "" && url.hash === "";
  }, "must be an origin without a path, e.g. http://127.0.0.1:4000");

const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== ""),
);

const onOff = z.enum(["on", "off", "1", "0", "true", "false"]).optional();
const offeredOrRequired = z.enum(["off", "offered", "required"], "must be off, offered or required").optional();

const envSchema = z.object({
  SANDBOX_PORT: optionalInt(0, 65_535),
  SANDBOX_HOST: z.string().trim().min(1).optional(),
  SANDBOX_ISSUER: httpOrigin.optional(),
  SANDBOX_DASHBOARD_REDIRECT_URIS: commaList
    .pipe(z.array(z.url().refine((v) => /^https?:\/\//.test(v), "must be an http(s) URL")).min(1, "must list at least one URL"))
    .optional(),
  SANDBOX_ACCESS_TOKEN_TTL: optionalInt(1, 10 * 365 * 24 * 3600),
  SANDBOX_REFRESH_TOKEN_TTL: optionalInt(1, 10 * 365 * 24 * 3600),
  SANDBOX_ID_TOKEN: z.enum(["on", "off", "1", "0", "true", "false"]).optional(),
  SANDBOX_END_SESSION: z.enum(["on", "off", "1", "0", "true", "false"]).optional(),
  SANDBOX_LATENCY_MS: optionalInt(0, 60_000),
  SANDBOX_FAIL: z.string().optional(),
  SANDBOX_ACCESS_TOKEN_PADDING: optionalInt(0, 100_000),
  SANDBOX_GRAPHQL_MISSING_FIELDS: commaList
    .pipe(z.array(z.string().regex(/^([A-Za-z_]\w*\.)?[A-Za-z_]\w*$/, "must be field names such as orders or Order.lineItems")))
    .optional(),
  SANDBOX_GRAPHQL_SEED_FIELDS_ONLY: z.enum(["1", "0", "true", "false", "on", "off"]).optional(),
  SANDBOX_MAX_PAGE_SIZE: optionalInt(1, 10_000),
  SANDBOX_CURSOR_TTL: optionalInt(0, 10 * 365 * 24 * 3600),
  SANDBOX_FOREIGN_RESOURCES: commaList.pipe(z.array(httpOrigin)).optional(),
  SANDBOX_CONTROL: z.enum(["1", "0", "true", "false", "on", "off"]).optional(),
  SANDBOX_CIMD_ALLOWED_HOSTS: commaList
    .pipe(z.array(z.string().toLowerCase().regex(HOST_PATTERN, "must be hosts such as example.com or example.com:8443")))
    .optional(),
  SANDBOX_CIMD_OPEN_REGISTRATION: z.enum(["1", "0", "true", "false", "on", "off"]).optional(),
  SANDBOX_REFRESH_REFUSAL_WITHOUT_BODY: onOff,
  SANDBOX_REFRESH_WITHOUT_ROTATION: onOff,
  SANDBOX_PARTIAL_CONSENT: onOff,
  SANDBOX_LOCALIZED_SIGN_IN: onOff,
  SANDBOX_OPENID_DISCOVERY_ONLY: onOff,
  SANDBOX_PAR: offeredOrRequired,
  SANDBOX_DPOP: offeredOrRequired,
  SANDBOX_DPOP_NONCE: onOff,
  SANDBOX_DPOP_REVOCATION: onOff,
  SANDBOX_ACCOUNT_API_TOKEN_REFUSAL: z
    .enum(ACCOUNT_API_TOKEN_REFUSALS, `must be one of ${ACCOUNT_API_TOKEN_REFUSALS.join(", ")}`)
    .optional(),
  SANDBOX_GRAPHQL_SERVER: z.enum(GRAPHQL_SERVERS, `must be one of ${GRAPHQL_SERVERS.join(", ")}`).optional(),
  SANDBOX_GRAPHQL_MAX_COST: optionalInt(0, 10_000_000),
  SANDBOX_DECIMAL_AMOUNTS: onOff,
  SANDBOX_COMMA_SCOPES: onOff,
  SANDBOX_ISSUER_TRAILING_SLASH: onOff,
  SANDBOX_CONTENT_CODING: z.enum([...CONTENT_CODINGS, "off"], `must be one of ${CONTENT_CODINGS.join(", ")}, off`).optional(),
});

const isOn = (value: string): boolean => ["on", "1", "true"].includes(value);

function emptyToUndefined(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    out[key] = value === undefined || value.trim() === "" ? undefined : value;
  }
  return out;
}

/** Reads the sandbox configuration; throws `SandboxConfigError` naming every bad variable. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? "environment");
      problems.push(`${name}: ${issue.message}`);
    }
  }
  let failures: Partial<Record<EndpointName, FailureSpec>> | undefined;
  const failText = env.SANDBOX_FAIL;
  if (failText !== undefined && failText.trim() !== "") {
    const result = parseFailureList(failText);
    if (result.ok) failures = result.failures;
    else problems.push(...result.problems.map((p) => `SANDBOX_FAIL: ${p}`));
  }
  if (problems.length > 0 || !parsed.success) throw new SandboxConfigError(problems);

  const values = parsed.data;
  const knobs: KnobsPatch = {};
  if (values.SANDBOX_ACCESS_TOKEN_TTL !== undefined) knobs.accessTokenTtlSeconds = values.SANDBOX_ACCESS_TOKEN_TTL;
  if (values.SANDBOX_REFRESH_TOKEN_TTL !== undefined) knobs.refreshTokenTtlSeconds = values.SANDBOX_REFRESH_TOKEN_TTL;
  if (values.SANDBOX_ID_TOKEN !== undefined) knobs.idToken = ["on", "1", "true"].includes(values.SANDBOX_ID_TOKEN);
  if (values.SANDBOX_END_SESSION !== undefined) knobs.endSession = ["on", "1", "true"].includes(values.SANDBOX_END_SESSION);
  if (values.SANDBOX_LATENCY_MS !== undefined) knobs.latencyMs = values.SANDBOX_LATENCY_MS;
  if (failures !== undefined) knobs.failures = failures;
  if (values.SANDBOX_ACCESS_TOKEN_PADDING !== undefined) knobs.accessTokenPadding = values.SANDBOX_ACCESS_TOKEN_PADDING;
  if (values.SANDBOX_GRAPHQL_MISSING_FIELDS !== undefined) knobs.graphqlMissingFields = values.SANDBOX_GRAPHQL_MISSING_FIELDS;
  if (values.SANDBOX_GRAPHQL_SEED_FIELDS_ONLY !== undefined)
    knobs.graphqlSeedFieldsOnly = ["1", "true", "on"].includes(values.SANDBOX_GRAPHQL_SEED_FIELDS_ONLY);
  if (values.SANDBOX_MAX_PAGE_SIZE !== undefined) knobs.maxPageSize = values.SANDBOX_MAX_PAGE_SIZE;
  if (values.SANDBOX_CURSOR_TTL !== undefined) knobs.cursorTtlSeconds = values.SANDBOX_CURSOR_TTL;
  if (values.SANDBOX_FOREIGN_RESOURCES !== undefined) knobs.foreignResources = values.SANDBOX_FOREIGN_RESOURCES;
  if (values.SANDBOX_CIMD_ALLOWED_HOSTS !== undefined) knobs.cimdAllowedHosts = values.SANDBOX_CIMD_ALLOWED_HOSTS;
  if (values.SANDBOX_CIMD_OPEN_REGISTRATION !== undefined) {
    knobs.cimdOpenRegistration = ["1", "true", "on"].includes(values.SANDBOX_CIMD_OPEN_REGISTRATION);
  }

  if (values.SANDBOX_REFRESH_REFUSAL_WITHOUT_BODY !== undefined) {
    knobs.refreshRefusalWithoutBody = isOn(values.SANDBOX_REFRESH_REFUSAL_WITHOUT_BODY);
  }
  if (values.SANDBOX_REFRESH_WITHOUT_ROTATION !== undefined) knobs.refreshWithoutRotation = isOn(values.SANDBOX_REFRESH_WITHOUT_ROTATION);
  if (values.SANDBOX_PARTIAL_CONSENT !== undefined) knobs.partialConsent = isOn(values.SANDBOX_PARTIAL_CONSENT);
  if (values.SANDBOX_LOCALIZED_SIGN_IN !== undefined) knobs.localizedSignIn = isOn(values.SANDBOX_LOCALIZED_SIGN_IN);
  if (values.SANDBOX_OPENID_DISCOVERY_ONLY !== undefined) knobs.openIdDiscoveryOnly = isOn(values.SANDBOX_OPENID_DISCOVERY_ONLY);
  if (values.SANDBOX_PAR !== undefined) knobs.par = values.SANDBOX_PAR;
  if (values.SANDBOX_DPOP !== undefined) knobs.dpop = values.SANDBOX_DPOP;
  if (values.SANDBOX_DPOP_NONCE !== undefined) knobs.dpopNonce = isOn(values.SANDBOX_DPOP_NONCE);
  if (values.SANDBOX_DPOP_REVOCATION !== undefined) knobs.dpopRevocation = isOn(values.SANDBOX_DPOP_REVOCATION);
  if (values.SANDBOX_ACCOUNT_API_TOKEN_REFUSAL !== undefined) knobs.accountApiTokenRefusal = values.SANDBOX_ACCOUNT_API_TOKEN_REFUSAL;
  if (values.SANDBOX_GRAPHQL_SERVER !== undefined) knobs.graphqlServer = values.SANDBOX_GRAPHQL_SERVER;
  if (values.SANDBOX_GRAPHQL_MAX_COST !== undefined) knobs.graphqlMaxCost = values.SANDBOX_GRAPHQL_MAX_COST;
  if (values.SANDBOX_DECIMAL_AMOUNTS !== undefined) knobs.decimalAmounts = isOn(values.SANDBOX_DECIMAL_AMOUNTS);
  if (values.SANDBOX_COMMA_SCOPES !== undefined) knobs.commaScopes = isOn(values.SANDBOX_COMMA_SCOPES);
  if (values.SANDBOX_ISSUER_TRAILING_SLASH !== undefined) knobs.issuerTrailingSlash = isOn(values.SANDBOX_ISSUER_TRAILING_SLASH);
  if (values.SANDBOX_CONTENT_CODING !== undefined) {
    knobs.contentCoding = values.SANDBOX_CONTENT_CODING === "off" ? null : values.SANDBOX_CONTENT_CODING;
  }

  const options: SandboxOptions = {
    knobs,
    control: values.SANDBOX_CONTROL !== undefined && ["1", "true", "on"].includes(values.SANDBOX_CONTROL),
  };
  if (values.SANDBOX_ISSUER !== undefined) options.issuer = values.SANDBOX_ISSUER;
  if (values.SANDBOX_DASHBOARD_REDIRECT_URIS !== undefined) options.dashboardRedirectUris = values.SANDBOX_DASHBOARD_REDIRECT_URIS;
  return { port: values.SANDBOX_PORT ?? 4000, host: values.SANDBOX_HOST ?? "127.0.0.1", options };
}
