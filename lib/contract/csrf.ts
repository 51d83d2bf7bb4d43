/**
 * The custom header every state-changing request from the dashboard's pages carries; with a same-origin
 * `Origin`, it is the BFF's CSRF check (lib/auth/csrf.ts, OWASP ASVS 5 V3.5.3). A cross-site form or
 * simple request cannot set it without a CORS preflight, which the BFF never grants. Client-safe.
 */
export const CSRF_HEADER = "x-requested-with";
export const CSRF_HEADER_VALUE = "companion-dashboard";
