import { describe, expect, it } from "vitest";

import { ConfigError, parseEnv } from "@/lib/config/env-schema";

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
      new Set(["SITE_URL", "OAUTH_CLIENT_ID", "OAUTH_CLIENT_SECRET", "APP_URL", "SESSION_SECRET", "LECTURE_URL_TEMPLATE", "EMBED_ORIGINS", "PORT"]),
    );
    expect(problems.find((problem) => problem.startsWith("OAUTH_CLIENT_SECRET"))).toBe("OAUTH_CLIENT_SECRET is required");
  });

  it.each(["http://school.example.com", "http://10.0.0.5:4000", "http://localhost.evil.example"])("refuses plain http for a non-loopback SITE_URL %s", (siteUrl) => {
    expect(problemsOf({ ...valid, SITE_URL: siteUrl })[0]).toMatch(/^SITE_URL must use https/);
  });

  it.each(["http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000"])("accepts plain http on the loopback host %s", (siteUrl) => {
    expect(parseEnv({ ...valid, SITE_URL: siteUrl }).siteUrl).toBe(new URL(siteUrl).origin);
  });

  it("reads several session secrets, newest first", () => {
    expect(parseEnv({ ...valid, SESSION_SECRET: `${"n".repeat(32)}, ${"o".repeat(32)}` }).sessionSecrets).toEqual(["n".repeat(32), "o".repeat(32)]);
  });

  it("validates COURSE_URL_TEMPLATE like LECTURE_URL_TEMPLATE: known placeholders, and {slug} required", () => {
    expect(parseEnv({ ...valid, COURSE_URL_TEMPLATE: "{site}/catalog/{slug}?ref=dashboard" }).courseUrlTemplate).toBe("{site}/catalog/{slug}?ref=dashboard");
    expect(problemsOf({ ...valid, COURSE_URL_TEMPLATE: "{site}/courses/{lectureId}" })).toEqual([
      "COURSE_URL_TEMPLATE unknown placeholder(s) {lectureId}",
      "COURSE_URL_TEMPLATE must contain {slug}",
    ]);
  });

  it("keeps SITE_URL an origin without a trailing slash", () => {
    expect(parseEnv({ ...valid, SITE_URL: "https://school.example.com/" }).siteUrl).toBe("https://school.example.com");
    expect(problemsOf({ ...valid, SITE_URL: "https://school.example.com/api" })[0]).toMatch(/^SITE_URL must be an origin only/);
  });

  it("keeps the in-memory shared state without REDIS_URL, and reads REDIS_URL and REDIS_PREFIX", () => {
    expect(parseEnv(valid)).toMatchObject({ redisUrl: undefined, redisPrefix: "dash:", logLevel: "info" });
    const config = parseEnv({ ...valid, REDIS_URL: "rediss://dash:pw@redis.internal:6380/2", REDIS_PREFIX: "school-a:", LOG_LEVEL: "warn" });
    expect(config).toMatchObject({ redisUrl: "rediss://dash:pw@redis.internal:6380/2", redisPrefix: "school-a:", logLevel: "warn" });
  });

  it.each(["http://redis.internal:6379", "redis.internal:6379", "unix:///tmp/redis.sock"])("refuses a REDIS_URL that is not redis:// or rediss://: %s", (url) => {
    expect(problemsOf({ ...valid, REDIS_URL: url })).toEqual(["REDIS_URL must be a redis:// or rediss:// URL"]);
  });

  it("refuses a REDIS_PREFIX with spaces or wildcards and an unknown LOG_LEVEL", () => {
    const variables = problemsOf({ ...valid, REDIS_PREFIX: "dash *", LOG_LEVEL: "verbose" }).map((problem) => problem.split(" ")[0]);
    expect(variables).toEqual(["REDIS_PREFIX", "LOG_LEVEL"]);
  });
});
