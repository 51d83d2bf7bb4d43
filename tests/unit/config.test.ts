import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ConfigError, envSchema, parseEnv, parseLogLevel } from "@/lib/config/env-schema";

const valid = {
  SITE_URL: "https://school.example.com",
  OAUTH_CLIENT_ID: "client",
  OAUTH_CLIENT_SECRET: "secret",
  APP_URL: "https://dashboard.example.com",
  SESSION_SECRET: "s".repeat(32),
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const config = parseEnv({ ...valid, APP_URL: undefined });
    expect(config).toMatchObject({
      appUrl: "http://localhost:3000",
      redirectUri: "http://localhost:3000/api/auth/callback",
      scopes: ["openid", "profile", "email", "account:read"],
      lectureUrlTemplate: "{site}/courses/{slug}/lectures/{lectureId}?t={positionSeconds}",
      courseUrlTemplate: "{site}/courses/{slug}",
      embedOrigins: ["https://school.example.com"],
      port: 3000,
      secureCookies: false,
    });
    expect(parseEnv(valid).secureCookies).toBe(true);
  });

  it("names every bad variable at once", () => {
    const problems = problemsOf({
      SITE_URL: "http://school.example.com",
      OAUTH_CLIENT_ID: "",
      APP_URL: "https://dashboard.example.com/path",
      SESSION_SECRET: "short,also-short",
      LECTURE_URL_TEMPLATE: "{site}/watch/{video}",
      EMBED_ORIGINS: "https://ok.example.com, ftp://bad.example.com",
      PORT: "70000",
    });
    const variables = problems.map((problem) => problem.split(" ")[0]);
    expect(new Set(variables)).toEqual(
      new Set([
        "SITE_URL",
        "OAUTH_CLIENT_ID",
        "OAUTH_CLIENT_SECRET",
        "APP_URL",
        "SESSION_SECRET",
        "LECTURE_URL_TEMPLATE",
        "EMBED_ORIGINS",
        "PORT",
      ]),
    );
    expect(problems.find((problem) => problem.startsWith("OAUTH_CLIENT_SECRET"))).toBe("OAUTH_CLIENT_SECRET is required");
  });

  it.each(["https://*", "https://*.example.com", "https://school.*", "https://ok.example.com, https://*"])(
    "refuses a pattern where an origin is expected: EMBED_ORIGINS=%s (frame-ancestors names exact origins)",
    (embedOrigins) => {
      expect(problemsOf({ ...valid, EMBED_ORIGINS: embedOrigins })[0]).toMatch(/^EMBED_ORIGINS .*must name one host/);
    },
  );

  it.each(["http://school.example.com", "http://10.0.0.5:4000", "http://localhost.evil.example"])(
    "refuses plain http for a non-loopback SITE_URL %s",
    (siteUrl) => {
      expect(problemsOf({ ...valid, SITE_URL: siteUrl })[0]).toMatch(/^SITE_URL must use https/);
    },
  );

  it.each(["http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000"])(
    "accepts plain http on the loopback host %s",
    (siteUrl) => {
      expect(parseEnv({ ...valid, SITE_URL: siteUrl }).siteUrl).toBe(new URL(siteUrl).origin);
    },
  );

  it("reads several session secrets, newest first", () => {
    expect(parseEnv({ ...valid, SESSION_SECRET: `${"n".repeat(32)}, ${"o".repeat(32)}` }).sessionSecrets).toEqual([
      "n".repeat(32),
      "o".repeat(32),
    ]);
  });

  it("validates COURSE_URL_TEMPLATE like LECTURE_URL_TEMPLATE: known placeholders, and {slug} required", () => {
    expect(parseEnv({ ...valid, COURSE_URL_TEMPLATE: "{site}/catalog/{slug}?ref=dashboard" }).courseUrlTemplate).toBe(
      "{site}/catalog/{slug}?ref=dashboard",
    );
    expect(problemsOf({ ...valid, COURSE_URL_TEMPLATE: "{site}/courses/{lectureId}" })).toEqual([
      "COURSE_URL_TEMPLATE unknown placeholder(s) {lectureId}",
      "COURSE_URL_TEMPLATE must contain {slug}",
    ]);
  });

  it("keeps SITE_URL an origin without a trailing slash", () => {
    expect(parseEnv({ ...valid, SITE_URL: "https://school.example.com/" }).siteUrl).toBe("https://school.example.com");
    expect(problemsOf({ ...valid, SITE_URL: "https://school.example.com/api" })[0]).toMatch(/^SITE_URL must be an origin only/);
  });

  it("takes the issuer as SITE_URL, or as SITE_ISSUER when that is SITE_URL followed by / (checklist 1: compared exactly)", () => {
    expect(parseEnv(valid).issuer).toBe(valid.SITE_URL);
    expect(parseEnv({ ...valid, SITE_ISSUER: `${valid.SITE_URL}/` }).issuer).toBe(`${valid.SITE_URL}/`);
    expect(parseEnv({ ...valid, SITE_ISSUER: "" }).issuer).toBe(valid.SITE_URL);
    for (const other of [
      `${valid.SITE_URL}//`,
      `${valid.SITE_URL}/oauth2/default`,
      "https://School.example.com/",
      "https://other.example/",
    ]) {
      expect(problemsOf({ ...valid, SITE_ISSUER: other }), other).toEqual([
        `SITE_ISSUER must be SITE_URL or SITE_URL followed by "/" (${valid.SITE_URL}/): the issuer as the site's metadata writes it`,
      ]);
    }
  });

  it.each(["http://redis.internal:6379", "redis.internal:6379", "unix:///tmp/redis.sock"])(
    "refuses a REDIS_URL that is not redis:// or rediss://: %s",
    (url) => {
      expect(problemsOf({ ...valid, REDIS_URL: url })).toEqual(["REDIS_URL must be a redis:// or rediss:// URL"]);
    },
  );

  it("defaults to in-memory shared state, the dash: prefix and the info log level", () => {
    expect(parseEnv(valid)).toMatchObject({ redisUrl: undefined, redisPrefix: "dash:", logLevel: "info" });
    expect(parseEnv({ ...valid, REDIS_URL: "", LOG_LEVEL: "" })).toMatchObject({ redisUrl: undefined, logLevel: "info" });
  });

  it.each(["redis://127.0.0.1:6379", "rediss://:secret@cache.internal:6380/2"])("accepts the Redis URL %s", (redisUrl) => {
    expect(parseEnv({ ...valid, REDIS_URL: redisUrl, REDIS_PREFIX: "school-a:", LOG_LEVEL: "debug" })).toMatchObject({
      redisUrl,
      redisPrefix: "school-a:",
      logLevel: "debug",
    });
  });

  it("refuses plain redis:// to a host beyond this machine unless REDIS_ALLOW_PLAINTEXT=true (finding 7)", () => {
    expect(problemsOf({ ...valid, REDIS_URL: "redis://:hunter2@cache.internal:6379" })).toEqual([
      "REDIS_URL must use rediss:// (TLS) for a host other than localhost or 127.0.0.1, or set REDIS_ALLOW_PLAINTEXT=true",
    ]);
    expect(parseEnv({ ...valid, REDIS_URL: "redis://cache.internal:6379", REDIS_ALLOW_PLAINTEXT: "true" }).redisUrl).toBe(
      "redis://cache.internal:6379",
    );
    expect(problemsOf({ ...valid, REDIS_ALLOW_PLAINTEXT: "yes" })).toEqual(["REDIS_ALLOW_PLAINTEXT must be true or false"]);
  });

  it("reads SITE_IMAGE_ORIGINS as origins, https or loopback http, none by default", () => {
    expect(parseEnv(valid).siteImageOrigins).toEqual([]);
    expect(parseEnv({ ...valid, SITE_IMAGE_ORIGINS: "https://cdn.school.example/, http://localhost:4100" }).siteImageOrigins).toEqual([
      "https://cdn.school.example",
      "http://localhost:4100",
    ]);
    for (const bad of ["http://cdn.school.example", "https://cdn.school.example/covers", "*.school.example", "https:"]) {
      expect(problemsOf({ ...valid, SITE_IMAGE_ORIGINS: bad }), bad).toEqual([expect.stringMatching(/^SITE_IMAGE_ORIGINS /)]);
    }
  });

  it("reads SITE_TIME_ZONE as an IANA zone, none by default", () => {
    expect(parseEnv(valid).siteTimeZone).toBeUndefined();
    expect(parseEnv({ ...valid, SITE_TIME_ZONE: "Asia/Taipei" }).siteTimeZone).toBe("Asia/Taipei");
    // A fixed offset is a zone to Intl too (ECMA-402): a site whose times never change with summer time.
    expect(parseEnv({ ...valid, SITE_TIME_ZONE: "+08:00" }).siteTimeZone).toBe("+08:00");
    expect(parseEnv({ ...valid, SITE_TIME_ZONE: "" }).siteTimeZone).toBeUndefined();
    for (const bad of ["Taipei", "GMT+8:00 Taipei", "Asia/Nowhere"]) {
      expect(problemsOf({ ...valid, SITE_TIME_ZONE: bad }), bad).toEqual([
        "SITE_TIME_ZONE must be an IANA time zone such as Asia/Taipei or UTC",
      ]);
    }
  });

  it("reads SITE_ENDPOINT_ORIGINS, TRUSTED_PROXY_HEADER and the rate limits, with defaults", () => {
    expect(parseEnv(valid)).toMatchObject({
      siteEndpointOrigins: [],
      trustedProxyHeader: undefined,
      rateLimit: { perClient: 60, perSession: 20, windowSeconds: 60 },
    });
    expect(
      parseEnv({
        ...valid,
        SITE_ENDPOINT_ORIGINS: "https://auth.example.com/",
        TRUSTED_PROXY_HEADER: "X-Real-IP",
        RATE_LIMIT_PER_CLIENT: "5",
      }),
    ).toMatchObject({ siteEndpointOrigins: ["https://auth.example.com"], trustedProxyHeader: "x-real-ip", rateLimit: { perClient: 5 } });
    expect(
      problemsOf({
        ...valid,
        SITE_ENDPOINT_ORIGINS: "http://auth.example.com",
        TRUSTED_PROXY_HEADER: "x real",
        RATE_LIMIT_PER_SESSION: "0",
      }),
    ).toHaveLength(3);
  });

  it("names a bad REDIS_URL, REDIS_PREFIX and LOG_LEVEL without echoing the Redis URL, which may hold a password", () => {
    const problems = problemsOf({ ...valid, REDIS_URL: "http://:hunter2@cache.internal", REDIS_PREFIX: "has space", LOG_LEVEL: "verbose" });
    expect(problems).toEqual([
      "REDIS_URL must be a redis:// or rediss:// URL",
      expect.stringMatching(/^REDIS_PREFIX must be 1 to 64/),
      "LOG_LEVEL must be one of debug, info, warn, error",
    ]);
    expect(problemsOf({ ...valid, REDIS_URL: "not a url" })).toEqual(["REDIS_URL must be a redis:// or rediss:// URL"]);
    expect(problems.join(" ")).not.toContain("hunter2");
  });

  it("reads Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME, credentials, TLS) as the alternative to REDIS_URL", () => {
    const config = parseEnv({
      ...valid,
      REDIS_SENTINELS: "sentinel-1.internal:26379, 10.0.0.2:26380,[::1]:26381",
      REDIS_SENTINEL_NAME: "dashboard",
      REDIS_USERNAME: "dash",
      REDIS_PASSWORD: "hunter2",
      REDIS_TLS: "true",
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisSentinel).toEqual({
      sentinels: [
        { host: "sentinel-1.internal", port: 26379 },
        { host: "10.0.0.2", port: 26380 },
        { host: "::1", port: 26381 },
      ],
      name: "dashboard",
      username: "dash",
      password: "hunter2",
      sentinelPassword: undefined,
      tls: true,
      skipReplicaWait: false,
    });
    expect(parseEnv(valid).redisSentinel).toBeUndefined();
  });

  it("refuses REDIS_URL and REDIS_SENTINELS together, Sentinels without a name, and Sentinel settings without Sentinels", () => {
    const sentinels = { REDIS_SENTINELS: "127.0.0.1:26379", REDIS_SENTINEL_NAME: "dashboard" };
    expect(problemsOf({ ...valid, ...sentinels, REDIS_URL: "rediss://:hunter2@cache.internal" })).toEqual([
      "REDIS_SENTINELS cannot be set together with REDIS_URL: choose one Redis, a URL or Sentinel",
    ]);
    expect(problemsOf({ ...valid, REDIS_SENTINELS: "127.0.0.1:26379" })).toEqual([
      expect.stringMatching(/^REDIS_SENTINEL_NAME is required with REDIS_SENTINELS/),
    ]);
    expect(problemsOf({ ...valid, REDIS_SENTINEL_NAME: "dashboard", REDIS_PASSWORD: "hunter2", REDIS_TLS: "true" })).toEqual([
      expect.stringMatching(/^REDIS_SENTINEL_NAME applies to Sentinel only/),
      expect.stringMatching(/^REDIS_PASSWORD applies to Sentinel only: set REDIS_SENTINELS, or put credentials in REDIS_URL/),
      "REDIS_TLS applies to Sentinel only: with REDIS_URL, use a rediss:// URL",
    ]);
  });

  it.each(["sentinel.internal", "sentinel.internal:0", "sentinel.internal:70000", "redis://sentinel.internal:26379", ","])(
    "refuses a REDIS_SENTINELS entry that is not host:port: %s",
    (value) => {
      expect(problemsOf({ ...valid, REDIS_SENTINELS: value, REDIS_SENTINEL_NAME: "dashboard" })[0]).toMatch(/^REDIS_SENTINELS /);
      expect(problemsOf({ ...valid, REDIS_SENTINELS: "127.0.0.1:26379", REDIS_SENTINEL_NAME: "has space" })[0]).toMatch(
        /^REDIS_SENTINEL_NAME must be/,
      );
    },
  );

  it("refuses a REDIS_TLS that is not true or false", () => {
    expect(problemsOf({ ...valid, REDIS_SENTINELS: "127.0.0.1:26379", REDIS_SENTINEL_NAME: "d", REDIS_TLS: "yes" })).toEqual([
      "REDIS_TLS must be true or false",
    ]);
  });

  it("reads LOG_LEVEL alone for the logger, falling back to info when it is missing or bad", () => {
    expect(parseLogLevel({ LOG_LEVEL: "warn" })).toBe("warn");
    expect(parseLogLevel({ LOG_LEVEL: "verbose" })).toBe("info");
    expect(parseLogLevel({})).toBe("info");
  });

  it("points at .env.example in the start-up error", () => {
    expect(() => parseEnv({})).toThrow(/\.env\.example/);
  });
});

describe(".env.example", () => {
  const text = readFileSync(path.resolve(import.meta.dirname, "..", "..", ".env.example"), "utf8");
  const lines = text.split("\n");
  const entries = lines.flatMap((line, index) => {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    return match ? [{ name: match[1]!, value: match[2]!, comment: lines[index - 1] ?? "" }] : [];
  });

  it("lists every configuration variable, each with a one-line comment", () => {
    const listed = entries.map((entry) => entry.name);
    for (const variable of Object.keys(envSchema.shape)) expect(listed).toContain(variable);
    for (const entry of entries) expect(entry.comment, entry.name).toMatch(/^# \S/);
  });

  it("holds safe examples that pass validation", () => {
    const example = Object.fromEntries(entries.map((entry) => [entry.name, entry.value]));
    expect(parseEnv(example).siteUrl).toBe("https://school.example.com");
    expect(example.OAUTH_CLIENT_SECRET).toMatch(/^replace-with/);
    expect(example.SESSION_SECRET).toMatch(/^replace-with/);
  });
});
