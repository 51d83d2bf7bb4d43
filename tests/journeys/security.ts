/**
 * What both browser suites check about security, whatever the engine: the headers every page carries,
 * and that no token of the site ever reaches the browser.
 */
import assert from "node:assert/strict";

/** The headers of a dashboard page as the browser received them (names in lower case). */
export function expectPageSecurityHeaders(headers: Record<string, string | undefined>, siteUrl: string): string {
  const csp = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce, "the page's CSP has no nonce");
  assert.ok(`${csp};`.includes(`frame-ancestors ${siteUrl};`), `frame-ancestors is not exactly the site: ${csp}`);
  assert.ok(csp.includes("object-src 'none'"), "object-src is not 'none'");
  assert.ok(csp.includes("base-uri 'none'"), "base-uri is not 'none'");
  assert.ok(csp.includes("'strict-dynamic'"), "script-src lacks 'strict-dynamic'");
  assert.equal(headers["strict-transport-security"], "max-age=31536000; includeSubDomains");
  assert.equal(headers["x-content-type-options"], "nosniff");
  assert.equal(headers["referrer-policy"], "no-referrer");
  assert.equal(headers["cache-control"], "no-store");
  return nonce;
}

/** Sign-in routes are never framed. */
export function expectNeverFramed(headers: Record<string, string | undefined>): void {
  assert.ok((headers["content-security-policy"] ?? "").includes("frame-ancestors 'none'"), "a sign-in route may be framed");
  assert.equal(headers["x-frame-options"], "DENY");
}

/** The sandbox's access and refresh tokens start with sat_ and srt_; neither, nor a token field, may reach the browser. */
export function expectNoToken(text: string): void {
  assert.doesNotMatch(text, /\bs[ar]t_[\w-]{20,}/);
  assert.doesNotMatch(text, /access_token|refresh_token|"accessToken"|"refreshToken"/);
}
