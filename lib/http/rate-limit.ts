import "server-only";

import { createHash } from "node:crypto";
import type { NextRequest } from "next/server";

import { AuthError } from "@/lib/auth/errors";
import { getConfig } from "@/lib/config";
import { logEvent } from "@/lib/log/logger";
import { SESSION_VARIANTS, sessionCookieName } from "@/lib/session/session";
import { getSharedState, isSharedStateUnavailable } from "@/lib/session/shared-state";

import { apiErrorResponse } from "./error-responses";

/**
 * Rate limits of the sign-in machinery (sign-in, callback, sign-out, revoke, embedded handoff; OWASP ASVS 5
 * V2.4.1, V6.3.1): a fixed window of RATE_LIMIT_WINDOW_SECONDS, counted atomically in the shared state so
 * the limit holds across instances, per client address and per session. Past a limit: 429 with
 * Retry-After and the API's JSON error (RFC 6585 section 4), or for a navigation the sign-in problem page
 * saying how long to wait; logged as `rate_limited`.
 *
 * The client address comes only from TRUSTED_PROXY_HEADER, which the operator's reverse proxy sets
 * (for a list such as X-Forwarded-For, its last entry: the one that proxy appended). Next.js gives route
 * handlers no socket address, and a header a client can set itself is no address at all: without that
 * setting there is no per-client limit, only the per-session one (README, "Behind a proxy").
 */
export async function rateLimited(request: NextRequest): Promise<Response | undefined> {
  const refusal = await rateLimitRefusal(request);
  return refusal && apiErrorResponse(refusal);
}

/**
 * The refusal of a request past a limit, for a route that answers it in its own way: a navigation (sign-in,
 * callback) ends on the sign-in problem page, which says how long to wait (lib/http/auth-redirects.ts).
 */
export async function rateLimitRefusal(request: NextRequest): Promise<AuthError | undefined> {
  const { rateLimit } = getConfig();
  const windowMs = rateLimit.windowSeconds * 1000;
  const subjects: { scope: "client" | "session"; id: string; limit: number }[] = [];
  const client = clientAddress(request);
  if (client) subjects.push({ scope: "client", id: client, limit: rateLimit.perClient });
  const session = sessionKey(request);
  if (session) subjects.push({ scope: "session", id: session, limit: rateLimit.perSession });
  for (const { scope, id, limit } of subjects) {
    let counted: { count: number; resetMs: number };
    try {
      counted = await getSharedState().countInWindow(`rate:${scope}:${digest(id)}`, windowMs);
    } catch (error) {
      // Without the shared state nothing can be counted; sign-out must still work, so the request goes on.
      if (!isSharedStateUnavailable(error)) throw error;
      logEvent("shared_state_error", { operation: "rate_limit", outcome: "not_counted" }, "warn");
      return undefined;
    }
    if (counted.count > limit) {
      const refusal = new AuthError("rate_limited", `More than ${limit} requests per ${rateLimit.windowSeconds} s from this ${scope}.`, {
        detail: scope,
      });
      refusal.retryAfterSeconds = Math.max(1, Math.ceil(counted.resetMs / 1000));
      return refusal;
    }
  }
  return undefined;
}

function clientAddress(request: NextRequest): string | undefined {
  const header = getConfig().trustedProxyHeader;
  if (!header) return undefined;
  const value = request.headers.get(header);
  // Only its digest is stored, so its length is bounded by the header's, not here.
  return value?.split(",").at(-1)?.trim() || undefined;
}

/** The session cookie(s) as sent, never opened: the same cookie is the same session. */
function sessionKey(request: NextRequest): string | undefined {
  const values = SESSION_VARIANTS.flatMap((variant) => {
    const name = sessionCookieName(variant);
    return [request.cookies.get(name)?.value ?? request.cookies.get(`${name}.0`)?.value ?? []].flat();
  });
  return values.length > 0 ? values.join("|") : undefined;
}

/** Keys hold no address or cookie, only their digest. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 32);
}
