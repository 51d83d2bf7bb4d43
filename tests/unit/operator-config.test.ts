import { describe, expect, it } from "vitest";

import { ConfigError, parseEnv, parseLogFormat } from "@/lib/config/env-schema";
import { isJsonLogLine, prettyLineFormatter, resolveLogFormat } from "@/lib/log/log-format";

const valid = {
  SITE_URL: "https://school.example.com",
  OAUTH_CLIENT_ID: "dashboard",
  OAUTH_CLIENT_SECRET: "client-secret",
  SESSION_SECRET: "a".repeat(32),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseEnv(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("LOG_FORMAT", () => {
  it("is pretty on a terminal and JSON lines otherwise, unless LOG_FORMAT says", () => {
    expect(resolveLogFormat({}, true)).toBe("pretty");
    expect(resolveLogFormat({}, false)).toBe("json");
    expect(resolveLogFormat({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(resolveLogFormat({ LOG_FORMAT: "pretty" }, false)).toBe("pretty");
    expect(parseLogFormat({ LOG_FORMAT: "yaml" })).toBeUndefined();
  });

  it("names a bad LOG_FORMAT with the other problems", () => {
    expect(problemsOf({ ...valid, LOG_FORMAT: "yaml" })).toEqual(["LOG_FORMAT must be one of json, pretty"]);
    expect(parseEnv({ ...valid, LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(parseEnv(valid).logFormat).toBeUndefined();
  });

  it("prints a logger's line as one human line with time, level and event, and a program's own line as it is", () => {
    const format = prettyLineFormatter({ colorize: false });
    const line =
      '{"level":"warn","time":"2026-11-24T06:00:00.000Z","service":"dashboard","event":"site_error","kind":"oauth","reason":"timeout"}';
    expect(isJsonLogLine(line)).toBe(true);
    expect(format(line)).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: site_error \{"kind":"oauth","reason":"timeout"\}\n$/);
    expect(isJsonLogLine("   ▲ Next.js 16.4.6")).toBe(false);
  });
});

describe("METRICS_PORT, METRICS_HOST and METRICS_TOKEN", () => {
  it("serve no metrics by default, and bind the metrics port to loopback unless told otherwise", () => {
    expect(parseEnv(valid).metrics).toEqual({ port: undefined, host: "127.0.0.1", token: undefined });
    expect(parseEnv({ ...valid, METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" }).metrics).toMatchObject({ port: 9464, host: "10.0.0.5" });
    expect(parseEnv({ ...valid, METRICS_HOST: "::" }).metrics.host).toBe("::");
  });

  it("never serve the metrics on the members' port: METRICS_PORT must differ from PORT", () => {
    expect(problemsOf({ ...valid, PORT: "3000", METRICS_PORT: "3000" })).toEqual([
      expect.stringMatching(/^METRICS_PORT must differ from PORT/),
    ]);
  });

  it("refuse a short or spaced token without echoing it, and a host that is a URL", () => {
    const problems = problemsOf({ ...valid, METRICS_TOKEN: "short-token-hunter2", METRICS_HOST: "http://0.0.0.0", METRICS_PORT: "70000" });
    expect(problems).toEqual([
      expect.stringMatching(/^METRICS_PORT /),
      expect.stringMatching(/^METRICS_HOST must be a host name or an IP address/),
      expect.stringMatching(/^METRICS_TOKEN must be at least 32 printable characters/),
    ]);
    expect(problems.join(" ")).not.toContain("hunter2");
    expect(problemsOf({ ...valid, METRICS_TOKEN: `${"a".repeat(20)} ${"b".repeat(20)}` })).toHaveLength(1);
    expect(parseEnv({ ...valid, METRICS_TOKEN: "t".repeat(32) }).metrics.token).toBe("t".repeat(32));
  });
});
