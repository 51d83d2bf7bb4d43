/**
 * `returnTo` keeps only a same-origin relative path (OWASP ASVS 5 V3.7.2, open redirects; RFC 9700
 * section 4.11). Anything that a browser could read as another origin falls back to "/".
 */
export function sanitizeReturnTo(value: string | null | undefined, appUrl: string): string {
  if (!value) return "/";
  let decoded = value;
  // Reject encoded tricks by looking at the value after decoding too (`%2F%2Fevil`, `%5Cevil`).
  for (let round = 0; round < 3; round += 1) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return "/";
    }
  }
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) return "/";
    if (/[\u0000-\u001f\u007f]/.test(candidate)) return "/";
  }
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
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
