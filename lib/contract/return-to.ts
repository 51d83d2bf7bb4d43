import { decodeRepeatedly } from "./percent-decoding";

/** The longest `returnTo` kept, in characters; a longer one falls back to "/". */
export const MAX_RETURN_TO_LENGTH = 1024;

/**
 * `returnTo` keeps only a same-origin relative path (OWASP ASVS 5 V3.7.2, open redirects; RFC 9700
 * section 4.11). Anything that a browser could read as another origin falls back to "/".
 */
export function sanitizeReturnTo(value: string | null | undefined, appUrl: string): string {
  if (!value || !isPlainPath(value)) return "/";
  const base = new URL(appUrl);
  let resolved: URL;
  try {
    resolved = new URL(value, base);
  } catch {
    return "/";
  }
  if (resolved.origin !== base.origin) return "/";
  // Never send the member back into the sign-in machinery itself.
  if (resolved.pathname.startsWith("/api/auth/")) return "/";
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // A long returnTo would push the transaction cookie past what browsers and proxies accept (OWASP ASVS 5
  // V3.3.5). Checked on the path as the URL parser wrote it (percent-encoding lengthens it).
  if (path.length > MAX_RETURN_TO_LENGTH) return "/";
  // Check the value we return, not only the one we received: the URL parser removes dot segments
  // (`/a/..//evil.example`, `/a/%2e%2e//evil.example`), which can turn a plain path into `//evil.example`.
  return isPlainPath(path) ? path : "/";
}

/**
 * True for a path that starts with one "/" and holds nothing a browser could read as another origin:
 * no "//" or "\" at its start, no backslash, no control characters, also after percent-decoding
 * (`%2F%2Fevil`, `%5Cevil`, double-encoded forms).
 */
function isPlainPath(value: string): boolean {
  const decoded = decodeRepeatedly(value);
  if (decoded === undefined) return false;
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) return false;
    if (/[\u0000-\u001f\u007f]/.test(candidate)) return false;
  }
  return true;
}
