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
