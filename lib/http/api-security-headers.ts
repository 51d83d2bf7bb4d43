/**
 * The headers every response of the dashboard carries, pages, API answers and static files alike
 * (OWASP ASVS 5 V3.4): set once, by next.config.mjs `headers()` for every path, so no request header
 * and no proxy matcher can take them away. Pages add their CSP with a nonce in proxy.ts.
 */
export const EVERY_RESPONSE_HEADERS: readonly { readonly key: string; readonly value: string }[] = [
  { key: "x-content-type-options", value: "nosniff" },
  { key: "referrer-policy", value: "no-referrer" },
  // Ignored by browsers over plain http (RFC 6797 section 8.1), so it is safe on the local demo too.
  { key: "strict-transport-security", value: "max-age=31536000; includeSubDomains" },
  { key: "permissions-policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

/** Never framed: API answers and static files (icons, the manifest, scripts) are no page of ours to embed. */
export const NEVER_FRAMED_HEADERS: readonly { readonly key: string; readonly value: string }[] = [
  { key: "content-security-policy", value: "default-src 'none'; frame-ancestors 'none'" },
  { key: "x-frame-options", value: "DENY" },
];

/**
 * Security headers of the BFF's API routes (OWASP ASVS 5 V3.4): JSON never framed, sniffed or cached.
 * Pages get theirs, with a per-request CSP nonce, from proxy.ts; the API routes skip the proxy, which
 * would cost every data request a second pass through the server. next.config.mjs sets them on every
 * `/api/` answer Next.js serves, and lib/http/front-door-route.ts on the data routes the front door
 * serves. Plain TypeScript Node.js runs as it is: next.config.mjs imports it.
 */
export const API_SECURITY_HEADERS: readonly { readonly key: string; readonly value: string }[] = [
  ...NEVER_FRAMED_HEADERS,
  ...EVERY_RESPONSE_HEADERS,
];
