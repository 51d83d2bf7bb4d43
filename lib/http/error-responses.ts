import "server-only";

import { NextResponse } from "next/server";

import { AuthError } from "@/lib/auth/errors";
import { logEvent, type LogEventName } from "@/lib/log/logger";
import { siteFailureDetails } from "@/lib/site/failure-details";

export interface ApiErrorBody {
  error: { code: string; message: string; detail?: string };
}

/** The one mapping from an error to a JSON answer of the BFF's API routes. Never a stack trace. */
export function apiErrorResponse(error: unknown): NextResponse<ApiErrorBody> {
  const { status, code, message, detail } = describe(error);
  logFailure(error, code);
  return NextResponse.json({ error: { code, message, ...(detail ? { detail } : {}) } }, { status, headers: { "cache-control": "no-store" } });
}

function describe(error: unknown): { status: number; code: string; message: string; detail?: string } {
  if (!(error instanceof AuthError)) {
    return { status: 500, code: "unexpected", message: "Something went wrong on our side. Please try again." };
  }
  switch (error.code) {
    case "unauthenticated":
    case "session_ended":
      return { status: 401, code: "unauthenticated", message: "Please sign in again." };
    case "insufficient_scope":
      return { status: 403, code: "insufficient_scope", message: "You have not granted the permission this page needs.", detail: error.detail };
    case "csrf_rejected":
      return { status: 403, code: "csrf_rejected", message: "This request did not come from the dashboard." };
    case "refresh_unavailable":
    case "site_unavailable":
    case "revocation_unavailable":
      return { status: 503, code: error.code, message: "The site is not answering right now. Please try again." };
    case "account_api_failed":
      return error.detail === "graphql_error"
        ? { status: 502, code: "query_failed", message: "The site could not provide this information." }
        : { status: 503, code: "site_unavailable", message: "The site is not answering right now. Please try again." };
    case "token_audience_mismatch":
    case "site_misconfigured":
      return { status: 502, code: "site_misconfigured", message: "The dashboard is not configured correctly for this site. Please tell the site's operator." };
    case "authorization_denied":
    case "authorization_failed":
    case "callback_replayed":
    case "id_token_invalid":
    case "issuer_mismatch":
    case "login_expired":
    case "login_state_mismatch":
    case "token_exchange_failed":
    case "userinfo_mismatch":
      // Sign-in failures end on the sign-in problem page; an API route never raises them.
      return { status: 400, code: error.code, message: "This request could not be completed." };
  }
}

/** The event of a failure whose code is not a site failure. */
const EVENT_OF_CODE: Partial<Record<string, LogEventName>> = { unexpected: "unexpected_error", csrf_rejected: "csrf_refused" };

/**
 * Logs the reason without tokens or secrets: our stable code and our own message, the error class of the
 * cause and, for a site failure, what the site said (endpoint or GraphQL operation, status, its error
 * code and message, cut short).
 */
export function logFailure(error: unknown, code: string, event: LogEventName = EVENT_OF_CODE[code] ?? "site_error"): void {
  if (code === "unauthenticated") return;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.name : undefined;
  const message = error instanceof AuthError ? error.message : error instanceof Error ? error.name : "unknown error";
  const detail = error instanceof AuthError ? error.detail : undefined;
  logEvent(event, { errorCode: code, detail, message, cause, ...siteFailureDetails(error) }, "warn");
}
