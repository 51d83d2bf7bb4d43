import "server-only";

import { getConfig } from "@/lib/config";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "@/lib/contract/csrf";

import { AuthError } from "./errors";

/**
 * State-changing requests must come from our own pages (OWASP ASVS 5 V3.5.1, V3.5.3): the Origin header
 * must be the dashboard's exact origin, and the custom header must be present (a cross-site form or
 * simple request cannot set it without a CORS preflight, which we never grant). Once the session cookie
 * is SameSite=None in embedded mode, these two checks are what protects it.
 */
export function assertSameOriginRequest(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null || origin !== getConfig().appUrl) {
    throw new AuthError("csrf_rejected", "This request did not come from the dashboard.", { detail: "origin" });
  }
  if (request.headers.get(CSRF_HEADER) !== CSRF_HEADER_VALUE) {
    throw new AuthError("csrf_rejected", "This request did not come from the dashboard.", { detail: "header" });
  }
}
