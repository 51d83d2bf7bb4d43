import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";
import { memoryJar } from "../../support/memory-jar";

/**
 * Security checklist 2 (RFC 9700 section 2.6, OWASP ASVS 5 V12.3.2): a site whose certificate is not
 * trusted, and names another host, gets no request at all: no fallback to an unchecked connection.
 * The certificate is a self-signed one for another.example, made with openssl for this run.
 */
let server: Server;
let siteUrl: string;
let requestsAnswered = 0;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "untrusted-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"],
        ...["-subj", "/CN=another.example", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (request, response) => {
      requestsAnswered += 1;
      const metadata = {
        issuer: siteUrl,
        authorization_endpoint: `${siteUrl}/oauth/authorize`,
        token_endpoint: `${siteUrl}/api/oauth/token`,
        response_types_supported: ["code"],
      };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  siteUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configureDashboard(siteUrl);
  resetConfigForTests();
  resetDiscoveryCacheForTests();
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe("checklist 2: a site with an untrusted or mismatched TLS certificate", () => {
  it("checklist 2: sign-in does not start, the site receives no request, and no transaction cookie is set", async () => {
    const jar = memoryJar();
    const log = captureLog();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "site_unavailable" });
    expect(requestsAnswered).toBe(0);
    expect(jar.cookies.size).toBe(0);
    // The operator reads why: the certificate, not a site that is down.
    const unreachable = log.events().find((event) => event.event === "site_error" && event.reason === "unreachable");
    expect(String(unreachable?.networkError)).toMatch(/CERT/);
  });
});
