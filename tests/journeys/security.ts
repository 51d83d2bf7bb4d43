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

/**
 * The headers of the prerendered signed-out page (no nonce: proxy.ts): its inline scripts by their hashes and
 * the build's chunks by their folder on the dashboard's origin, nothing else; framing and the rest as on
 * every page.
 */
export function expectPrerenderedPageSecurityHeaders(headers: Record<string, string | undefined>, appUrl: string, siteUrl: string): void {
  const csp = headers["content-security-policy"] ?? "";
  const scripts = csp.split("; ").find((directive) => directive.startsWith("script-src ")) ?? "";
  assert.match(scripts, /^script-src( 'sha256-[A-Za-z0-9+/]{43}=')+ (\S+)$/, `script-src is not hashes and one folder: ${scripts}`);
  assert.equal(scripts.split(" ").at(-1), `${appUrl}/_next/static/chunks/`);
  assert.doesNotMatch(csp, /'nonce-|'strict-dynamic'|'unsafe-eval'/);
  assert.ok(`${csp};`.includes(`frame-ancestors ${siteUrl};`), `frame-ancestors is not exactly the site: ${csp}`);
  assert.ok(csp.includes("object-src 'none'") && csp.includes("base-uri 'none'"), "object-src or base-uri is not 'none'");
  assert.equal(headers["cache-control"], "no-store");
}

/**
 * Runs in the page: what injected markup could try, an inline script element and an inline event handler.
 * Resolves to what ran (nothing, under a policy without 'unsafe-inline').
 */
export async function runInjectedScripts(): Promise<string[]> {
  const ran: string[] = [];
  Object.assign(window, { injectedRan: (what: string) => ran.push(what) });
  const script = document.createElement("script");
  script.textContent = "injectedRan('script element')";
  document.body.append(script);
  const holder = document.createElement("div");
  holder.innerHTML = '<img alt="" src="data:," onload="injectedRan(\'event handler\')" onerror="injectedRan(\'event handler\')">';
  document.body.append(holder);
  await new Promise((resolve) => setTimeout(resolve, 500));
  return ran;
}

/** Sign-in routes are never framed. */
export function expectNeverFramed(headers: Record<string, string | undefined>): void {
  assert.ok((headers["content-security-policy"] ?? "").includes("frame-ancestors 'none'"), "a sign-in route may be framed");
  assert.equal(headers["x-frame-options"], "DENY");
}

/**
 * The sandbox's access and refresh tokens start with sat_ and srt_, its ID tokens are JWTs (a JOSE header
 * and claims, each base64url of a JSON object: eyJ…); none of them, nor a token field, may reach the browser.
 */
export function expectNoToken(text: string): void {
  assert.doesNotMatch(text, /\bs[ar]t_[\w-]{20,}/);
  assert.doesNotMatch(text, /\beyJ[\w-]{10,}\.eyJ[\w-]{10,}\./);
  assert.doesNotMatch(text, /access_token|refresh_token|"accessToken"|"refreshToken"/);
}
