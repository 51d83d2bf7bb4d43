import { NextResponse, type NextRequest } from "next/server";

/**
 * What any Next.js page that keeps a strict CSP pays on every view (Next.js's own nonce pattern): a fresh
 * nonce, handed to the render in the request's CSP header and sent back with the answer. The dashboard's
 * proxy does this and, besides, the member's session and token refresh; here only the nonce.
 */
export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname === "/hashed-static") return hashedPage();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const csp = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("cache-control", "no-store");
  return response;
}

/**
 * A prerendered page keeps a strict CSP without a nonce: its inline scripts by their hashes and the
 * build's chunks by their folder (../hashed-csp.ts), computed from the built page and handed in by the
 * bench (FLOOR_HASHED_CSP, ../next-floor.ts). Without it, no script runs.
 */
function hashedPage() {
  const response = NextResponse.next();
  response.headers.set("content-security-policy", process.env["FLOOR_HASHED_CSP"] ?? "script-src 'none'");
  response.headers.set("cache-control", "no-store");
  return response;
}

/** Only these pages: the floor's other pages stay what they were (no proxy). */
export const config = { matcher: ["/csp-list", "/member-list", "/client-list", "/query-list", "/initial-data-list", "/hashed-static"] };
