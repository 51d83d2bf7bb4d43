/**
 * The dashboard's configuration contract (docs/architecture.md section 3), as a pure schema so that both the
 * server (lib/config) and the launcher (scripts/start.ts) validate the environment the same way.
 * Nothing here reads process.env: lib/config/index.ts is the one reader.
 */
import { z } from "zod";
import { API_ROUTES } from "../contract/paths";

export const DEFAULT_SCOPES = "openid profile email account:read";
export const DEFAULT_LECTURE_URL_TEMPLATE = "{site}/courses/{slug}/lectures/{lectureId}?t={positionSeconds}";
const LECTURE_TEMPLATE_PLACEHOLDERS = new Set(["site", "slug", "lectureId", "positionSeconds"]);
export const DEFAULT_COURSE_URL_TEMPLATE = "{site}/courses/{slug}";
const COURSE_TEMPLATE_PLACEHOLDERS = new Set(["site", "slug"]);

export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** A host name or IPv4 address as the URL parser leaves it (lower case, IDNs in punycode). */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * An origin (scheme, host, port; no path, query or fragment). Plain http is accepted only for
 * loopback hosts: RFC 9700 section 2.6 and OWASP ASVS 5 V12.1 require TLS for everything else.
 */
const origin = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a URL` });
    return z.NEVER;
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    ctx.addIssue({ code: "custom", message: "must use https (plain http is accepted only for localhost and 127.0.0.1)" });
    return z.NEVER;
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: "custom", message: "must be an origin only, without path, query, fragment or credentials" });
    return z.NEVER;
  }
  // One host, never a pattern: the URL parser lets `*` through (https://* or https://*.example.com), which
  // would make a frame-ancestors source match any site (CSP3 host-source; security checklist 66).
  if (!HOST_NAME.test(url.hostname) && !/^\[[0-9a-f:.]+\]$/.test(url.hostname)) {
    ctx.addIssue({ code: "custom", message: "must name one host (letters, digits, hyphens and dots, or an IP address), not a pattern" });
    return z.NEVER;
  }
  return url.origin;
});

const sessionSecrets = z.string().transform((value, ctx) => {
  const secrets = value
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  if (secrets.length === 0) {
    ctx.addIssue({ code: "custom", message: "must hold at least one secret" });
    return z.NEVER;
  }
  if (secrets.some((secret) => secret.length < 32)) {
    ctx.addIssue({ code: "custom", message: "every secret must be at least 32 characters long" });
    return z.NEVER;
  }
  return secrets;
});

/** A URL template of known placeholders that must contain `required` (e.g. `{lectureId}`). */
function urlTemplate(placeholders: ReadonlySet<string>, required: string) {
  return z.string().superRefine((value, ctx) => {
    const unknown = [...value.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? "").filter((name) => !placeholders.has(name));
    if (unknown.length > 0) {
      ctx.addIssue({ code: "custom", message: `unknown placeholder(s) ${unknown.map((name) => `{${name}}`).join(", ")}` });
    }
    if (!value.includes(`{${required}}`)) {
      ctx.addIssue({ code: "custom", message: `must contain {${required}}` });
    }
  });
}

const lectureUrlTemplate = urlTemplate(LECTURE_TEMPLATE_PLACEHOLDERS, "lectureId");
const courseUrlTemplate = urlTemplate(COURSE_TEMPLATE_PLACEHOLDERS, "slug");

const scopes = z
  .string()
  .transform((value) => value.split(/\s+/).filter(Boolean))
  .refine((list) => list.length > 0, "must name at least one scope");

const port = z.coerce.number().int().min(1).max(65535);

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = "info";
const logLevel = z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` });

/**
 * The shared state's Redis (docs/architecture.md section 8): `rediss://` (TLS) or `redis://`; the URL may hold a
 * password, so it is never echoed.
 */
const redisUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return ["redis:", "rediss:"].includes(url.protocol) && url.hostname !== "";
  } catch {
    return false;
  }
}, "must be a redis:// or rediss:// URL");

const redisPrefix = z.string().regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, or _ : . -");

/** DPoP (RFC 9449): bind tokens when the site advertises it (auto), never (off), or refuse a site without it (required). */
export const DPOP_MODES = ["auto", "off", "required"] as const;
export type DpopMode = (typeof DPOP_MODES)[number];
const dpopMode = z.enum(DPOP_MODES, { error: `must be one of ${DPOP_MODES.join(", ")}` });

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/** How log lines look: JSON lines for a pipeline, or human lines for a terminal (default: pretty when stdout is a terminal). */
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
const logFormat = z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(", ")}` });

/** The address the metrics port binds to: a host name or an IP address, never a URL. */
const metricsHost = z
  .string()
  .regex(/^(?:[A-Za-z0-9.-]{1,253}|[0-9A-Fa-f:.]{2,45})$/, "must be a host name or an IP address (e.g. 127.0.0.1)");

/** The bearer token for /api/metrics: long and random, like a session secret; never echoed. */
const metricsToken = z
  .string()
  .regex(/^[\x21-\x7e]{32,}$/, "must be at least 32 printable characters without spaces (e.g. openssl rand -base64 32)");

const booleanFlag = z.enum(["true", "false"], { error: "must be true or false" }).transform((value) => value === "true");

/** A comma-separated list of origins (https; plain http only for loopback hosts). */
const originList = z.string().transform((value, ctx) => {
  const origins: string[] = [];
  for (const entry of value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const parsed = origin.safeParse(entry);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: `"${entry}" ${parsed.error.issues[0]?.message ?? "is not an origin"}` });
      return z.NEVER;
    }
    origins.push(parsed.data);
  }
  return origins;
});

/** An HTTP header name, lower-cased (for TRUSTED_PROXY_HEADER). */
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name such as x-forwarded-for")
  .transform((value) => value.toLowerCase());

const positiveCount = z.coerce.number().int().min(1).max(1_000_000);

/** An IANA time zone this runtime knows, as Intl names it (for SITE_TIME_ZONE). */
const ianaTimeZone = z.string().transform((value, ctx) => {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    ctx.addIssue({ code: "custom", message: "must be an IANA time zone such as Asia/Taipei or UTC" });
    return z.NEVER;
  }
});

/** One Sentinel's address, as in REDIS_SENTINELS. */
export interface RedisNodeAddress {
  host: string;
  port: number;
}

/**
 * REDIS_SENTINELS: the Sentinels' addresses, `host:port` (or `[ipv6]:port`), comma-separated; node-redis asks
 * them which server is the primary now (docs/architecture.md section 8).
 */
export const redisSentinels = z.string().transform((value, ctx) => {
  const nodes: RedisNodeAddress[] = [];
  for (const entry of value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      ctx.addIssue({ code: "custom", message: `"${entry.slice(0, 100)}" is not a host:port address` });
      return z.NEVER;
    }
    nodes.push({ host: match[1]!.replace(/^\[(.*)\]$/, "$1"), port });
  }
  if (nodes.length === 0) {
    ctx.addIssue({ code: "custom", message: "must list at least one host:port" });
    return z.NEVER;
  }
  return nodes;
});

/** The name the Sentinels monitor the primary under (`sentinel monitor <name> ...`). */
export const redisSentinelName = z.string().regex(/^[\w.-]{1,64}$/, "must be 1 to 64 letters, digits, or _ . -");

/**
 * True for an issuer SITE_ISSUER may name for the site at `origin`: that origin, or that origin followed by "/"
 * (as Auth0 writes its issuers): the same well-known addresses, and compared exactly (checklist 1).
 */
export function isIssuerOfOrigin(issuer: string, origin: string): boolean {
  return issuer === origin || issuer === `${origin}/`;
}

export const envSchema = z
  .object({
    SITE_URL: z.preprocess(emptyAsUndefined, origin),
    /**
     * The site's issuer exactly as its metadata writes it, when that is SITE_URL with a trailing slash
     * (`https://school.example.com/`, as Auth0 writes its issuers). Compared exactly (RFC 8414 section 3.3).
     */
    SITE_ISSUER: z.preprocess(emptyAsUndefined, z.string().optional()),
    OAUTH_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1)),
    OAUTH_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1)),
    APP_URL: z.preprocess(emptyAsUndefined, origin.default("http://localhost:3000")),
    SESSION_SECRET: z.preprocess(emptyAsUndefined, sessionSecrets),
    OAUTH_SCOPES: z.preprocess(emptyAsUndefined, scopes.default(scopes.parse(DEFAULT_SCOPES))),
    LECTURE_URL_TEMPLATE: z.preprocess(emptyAsUndefined, lectureUrlTemplate.default(DEFAULT_LECTURE_URL_TEMPLATE)),
    COURSE_URL_TEMPLATE: z.preprocess(emptyAsUndefined, courseUrlTemplate.default(DEFAULT_COURSE_URL_TEMPLATE)),
    EMBED_ORIGINS: z.preprocess(emptyAsUndefined, originList.optional()),
    PORT: z.preprocess(emptyAsUndefined, port.default(3000)),
    REDIS_URL: z.preprocess(emptyAsUndefined, redisUrl.optional()),
    REDIS_PREFIX: z.preprocess(emptyAsUndefined, redisPrefix.default("dash:")),
    REDIS_SENTINELS: z.preprocess(emptyAsUndefined, redisSentinels.optional()),
    REDIS_SENTINEL_NAME: z.preprocess(emptyAsUndefined, redisSentinelName.optional()),
    REDIS_USERNAME: z.preprocess(emptyAsUndefined, z.string().optional()),
    REDIS_PASSWORD: z.preprocess(emptyAsUndefined, z.string().optional()),
    REDIS_SENTINEL_PASSWORD: z.preprocess(emptyAsUndefined, z.string().optional()),
    REDIS_TLS: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
    /**
     * TESTS ONLY (tests/failover): acknowledge shared-state writes without waiting for a replica, to prove
     * that the wait is what keeps a sign-out across a failover. Never set it in a deployment.
     */
    REDIS_UNSAFE_SKIP_REPLICA_WAIT: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
    LOG_LEVEL: z.preprocess(emptyAsUndefined, logLevel.default(DEFAULT_LOG_LEVEL)),
    DPOP: z.preprocess(emptyAsUndefined, dpopMode.default("auto")),
    LOG_FORMAT: z.preprocess(emptyAsUndefined, logFormat.optional()),
    METRICS_PORT: z.preprocess(emptyAsUndefined, port.optional()),
    METRICS_HOST: z.preprocess(emptyAsUndefined, metricsHost.default("127.0.0.1")),
    METRICS_TOKEN: z.preprocess(emptyAsUndefined, metricsToken.optional()),
    /** Plain `redis://` to a non-loopback host is refused unless this says the network is trusted (like http:// for the site). */
    REDIS_ALLOW_PLAINTEXT: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
    /** Origins other than SITE_URL's that the site's metadata may name for token, UserInfo, revocation and JWKS. */
    SITE_ENDPOINT_ORIGINS: z.preprocess(emptyAsUndefined, originList.default([])),
    /** Origins besides SITE_URL's that serve the course covers (the site's image CDN): the pages' img-src. */
    SITE_IMAGE_ORIGINS: z.preprocess(emptyAsUndefined, originList.default([])),
    /** The zone in which the site means a date and time it sends without an offset (lib/account-api/site-date-time.ts). */
    SITE_TIME_ZONE: z.preprocess(emptyAsUndefined, ianaTimeZone.optional()),
    /** The header a trusted reverse proxy sets to the client's address (rate limits per client). Unset: no per-client limit. */
    TRUSTED_PROXY_HEADER: z.preprocess(emptyAsUndefined, headerName.optional()),
    /** Sign-in, callback, logout, revoke and embedded handoff requests allowed per client address per window. */
    RATE_LIMIT_PER_CLIENT: z.preprocess(emptyAsUndefined, positiveCount.default(60)),
    /** The same requests allowed per session per window. */
    RATE_LIMIT_PER_SESSION: z.preprocess(emptyAsUndefined, positiveCount.default(20)),
    /** The window of both limits, in seconds. */
    RATE_LIMIT_WINDOW_SECONDS: z.preprocess(emptyAsUndefined, positiveCount.default(60)),
    /** How long one anonymous probe of the site's MCP server (is its MCP beta on?) is trusted, in seconds; 0: ask every time. */
    MCP_PROBE_TTL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3600).default(30)),
  })
  .superRefine((env, ctx) => {
    const problem = (variable: string, message: string) => ctx.addIssue({ code: "custom", path: [variable], message });
    // Checklist 1: the issuer is compared exactly; the operator names it when the site writes it with its "/".
    if (env.SITE_ISSUER !== undefined && env.SITE_URL !== undefined && !isIssuerOfOrigin(env.SITE_ISSUER, env.SITE_URL)) {
      problem(
        "SITE_ISSUER",
        `must be SITE_URL or SITE_URL followed by "/" (${env.SITE_URL}/): the issuer as the site's metadata writes it`,
      );
    }
    // The Redis of the shared state is one of two forms: REDIS_URL, or Sentinel (REDIS_SENTINELS with its name).
    if (env.REDIS_URL !== undefined && env.REDIS_SENTINELS !== undefined) {
      problem("REDIS_SENTINELS", "cannot be set together with REDIS_URL: choose one Redis, a URL or Sentinel");
    }
    if (env.REDIS_SENTINELS !== undefined && env.REDIS_SENTINEL_NAME === undefined) {
      problem("REDIS_SENTINEL_NAME", "is required with REDIS_SENTINELS: the name the Sentinels monitor the primary under");
    }
    if (env.REDIS_SENTINELS === undefined) {
      const sentinelOnly = ["REDIS_SENTINEL_NAME", "REDIS_USERNAME", "REDIS_PASSWORD", "REDIS_SENTINEL_PASSWORD"] as const;
      for (const variable of sentinelOnly) {
        if (env[variable] !== undefined) {
          problem(
            variable,
            `applies to Sentinel only: set REDIS_SENTINELS${variable === "REDIS_SENTINEL_NAME" ? "" : ", or put credentials in REDIS_URL"}`,
          );
        }
      }
      if (env.REDIS_TLS) problem("REDIS_TLS", "applies to Sentinel only: with REDIS_URL, use a rediss:// URL");
    }
    // The same rule as for the site (RFC 9700 section 2.6): no plaintext to a host beyond this machine,
    // unless the operator says the network is private (REDIS_ALLOW_PLAINTEXT=true).
    // (Checks run on partly invalid input too: a REDIS_URL that is no URL is reported by its own rule.)
    if (env.REDIS_URL && env.REDIS_ALLOW_PLAINTEXT !== true && URL.canParse(env.REDIS_URL)) {
      const url = new URL(env.REDIS_URL);
      if (url.protocol === "redis:" && !isLoopbackHost(url.hostname)) {
        ctx.addIssue({
          code: "custom",
          path: ["REDIS_URL"],
          message: "must use rediss:// (TLS) for a host other than localhost or 127.0.0.1, or set REDIS_ALLOW_PLAINTEXT=true",
        });
      }
    }
  });

export type EnvInput = Record<string, string | undefined>;

export interface AppConfig {
  siteUrl: string;
  /** The site's issuer identifier, compared exactly: SITE_ISSUER, else SITE_URL. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  appUrl: string;
  redirectUri: string;
  sessionSecrets: string[];
  scopes: string[];
  lectureUrlTemplate: string;
  /** How a Start or Renew link to a course on the site is formed. */
  courseUrlTemplate: string;
  embedOrigins: string[];
  port: number;
  /** The shared state's Redis; undefined: in memory, one process. */
  redisUrl: string | undefined;
  redisPrefix: string;
  /** The shared state's Redis through Sentinel (the alternative to redisUrl); undefined when not configured. */
  redisSentinel: RedisSentinelConfig | undefined;
  logLevel: LogLevel;
  /** LOG_FORMAT when set; undefined: pretty on a terminal, JSON lines otherwise (lib/log/log-format.ts). */
  logFormat: LogFormat | undefined;
  /**
   * The Prometheus endpoint (README, Metrics): on its own port at `host` when `port` is set, and on the app's
   * port at /api/metrics only for a request bearing `token`. Neither set: no metrics are served.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** DPoP (RFC 9449): auto, off or required. */
  dpop: DpopMode;
  /** Origins besides SITE_URL's allowed for the site's token, UserInfo, revocation endpoints and jwks_uri. */
  siteEndpointOrigins: string[];
  /** Origins besides SITE_URL's whose images the pages may show (the course covers' CDN). */
  siteImageOrigins: string[];
  /** Where the site's dates and times without an offset are wall-clock times; undefined: read as UTC, with a warning. */
  siteTimeZone: string | undefined;
  /** Lower-cased header a trusted proxy sets to the client's address; undefined: no per-client rate limit. */
  trustedProxyHeader: string | undefined;
  rateLimit: { perClient: number; perSession: number; windowSeconds: number };
  /** Seconds an anonymous MCP probe's answer is kept per process (lib/site/mcp-client.ts). */
  mcpProbeTtlSeconds: number;
  /** Cookies are Secure except on a plain-http loopback APP_URL (local demo and tests). */
  secureCookies: boolean;
}

export interface RedisSentinelConfig {
  sentinels: RedisNodeAddress[];
  /** The primary's name at the Sentinels. */
  name: string;
  /** Credentials of the data nodes (primary and replicas), as with `AUTH [username] password`. */
  username: string | undefined;
  password: string | undefined;
  /** The Sentinels' own password, when they require one. */
  sentinelPassword: string | undefined;
  tls: boolean;
  /** TESTS ONLY: do not wait for a replica's acknowledgement (REDIS_UNSAFE_SKIP_REPLICA_WAIT). */
  skipReplicaWait: boolean;
}

export class ConfigError extends Error {
  readonly code = "config_invalid";
  constructor(readonly problems: string[]) {
    const list = problems.map((problem) => `  - ${problem}`).join("\n");
    super(`Invalid configuration:\n${list}\nEvery variable is described, with a safe example, in .env.example.`);
    this.name = "ConfigError";
  }
}

/** Validates the whole environment at once and names every bad variable in one error. */
export function parseEnv(env: EnvInput): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? "environment");
      const message = issue.code === "invalid_type" && env[variable] === undefined ? "is required" : issue.message;
      return `${variable} ${message}`;
    });
    throw new ConfigError(problems);
  }
  const data = result.data;
  if (data.METRICS_PORT !== undefined && data.METRICS_PORT === data.PORT) {
    throw new ConfigError(["METRICS_PORT must differ from PORT (the metrics are never served on the members' port without METRICS_TOKEN)"]);
  }
  return {
    siteUrl: data.SITE_URL,
    issuer: data.SITE_ISSUER ?? data.SITE_URL,
    clientId: data.OAUTH_CLIENT_ID,
    clientSecret: data.OAUTH_CLIENT_SECRET,
    appUrl: data.APP_URL,
    redirectUri: `${data.APP_URL}${API_ROUTES.callback}`,
    sessionSecrets: data.SESSION_SECRET,
    scopes: data.OAUTH_SCOPES,
    lectureUrlTemplate: data.LECTURE_URL_TEMPLATE,
    courseUrlTemplate: data.COURSE_URL_TEMPLATE,
    embedOrigins: data.EMBED_ORIGINS ?? [data.SITE_URL],
    port: data.PORT,
    redisUrl: data.REDIS_URL,
    redisPrefix: data.REDIS_PREFIX,
    redisSentinel:
      data.REDIS_SENTINELS && data.REDIS_SENTINEL_NAME
        ? {
            sentinels: data.REDIS_SENTINELS,
            name: data.REDIS_SENTINEL_NAME,
            username: data.REDIS_USERNAME,
            password: data.REDIS_PASSWORD,
            sentinelPassword: data.REDIS_SENTINEL_PASSWORD,
            tls: data.REDIS_TLS,
            skipReplicaWait: data.REDIS_UNSAFE_SKIP_REPLICA_WAIT,
          }
        : undefined,
    logLevel: data.LOG_LEVEL,
    logFormat: data.LOG_FORMAT,
    metrics: { port: data.METRICS_PORT, host: data.METRICS_HOST, token: data.METRICS_TOKEN },
    dpop: data.DPOP,
    siteEndpointOrigins: data.SITE_ENDPOINT_ORIGINS,
    siteImageOrigins: data.SITE_IMAGE_ORIGINS,
    siteTimeZone: data.SITE_TIME_ZONE,
    trustedProxyHeader: data.TRUSTED_PROXY_HEADER,
    rateLimit: {
      perClient: data.RATE_LIMIT_PER_CLIENT,
      perSession: data.RATE_LIMIT_PER_SESSION,
      windowSeconds: data.RATE_LIMIT_WINDOW_SECONDS,
    },
    mcpProbeTtlSeconds: data.MCP_PROBE_TTL_SECONDS,
    secureCookies: new URL(data.APP_URL).protocol === "https:",
  };
}

/**
 * LOG_LEVEL alone, for the logger, which must work before the rest of the configuration is valid (the
 * launcher, and the message that reports bad configuration). A bad value falls back to the default here;
 * parseEnv reports it with the other problems.
 */
export function parseLogLevel(env: EnvInput): LogLevel {
  const parsed = logLevel.safeParse(env.LOG_LEVEL);
  return parsed.success ? parsed.data : DEFAULT_LOG_LEVEL;
}

/** LOG_FORMAT alone, like LOG_LEVEL: undefined when unset or bad (parseEnv reports a bad value). */
export function parseLogFormat(env: EnvInput): LogFormat | undefined {
  const parsed = logFormat.safeParse(env.LOG_FORMAT);
  return parsed.success ? parsed.data : undefined;
}
