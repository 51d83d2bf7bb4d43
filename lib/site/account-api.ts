import "server-only";

import { ClientError, GraphQLClient } from "graphql-request";
import * as oauth from "oauth4webapi";

import type { AccountOperation } from "@/lib/account/operations";
import { getConfig } from "@/lib/config";
import { AuthError } from "@/lib/auth/errors";
import { siteRequestOptions } from "@/lib/auth/site-http";

import { siteFailureOf, siteFetchFor } from "./site-fetch";


export const ACCOUNT_API_PATH = "/account/graphql";

function expectedResourceMetadataUrl(): string {
  return `${getConfig().siteUrl}/.well-known/oauth-protected-resource`;
}

/**
 * The one place that calls the Account API, with a named operation from lib/account (the browser can
 * never send arbitrary GraphQL through the BFF). graphql-request frames the GraphQL request; oauth4webapi's
 * protectedResourceRequest attaches the bearer token and parses WWW-Authenticate challenges. Nothing from
 * the browser's request (cookies, headers) is ever forwarded.
 */
export async function runAccountOperation<TData>(
  accessToken: string,
  operation: AccountOperation,
  variables: Record<string, unknown> = {},
): Promise<TData> {
  const url = `${getConfig().siteUrl}${ACCOUNT_API_PATH}`;
  const client = new GraphQLClient(url, {
    // Each document holds exactly one named operation; not re-parsing it on every request saves time.
    excludeOperationName: true,
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      oauth.protectedResourceRequest(
        accessToken,
        "POST",
        new URL(input instanceof Request ? input.url : input.toString()),
        new Headers({ "content-type": "application/json", accept: "application/json" }),
        (init?.body as string | undefined) ?? null,
        { ...siteRequestOptions(), [oauth.customFetch]: siteFetchFor("graphql") },
      ),
  });
  try {
    return await client.request<TData>({
      document: operation.document,
      variables,
    });
  } catch (error) {
    throw toAccountError(error);
  }
}

function toAccountError(error: unknown): AuthError {
  const failure = siteFailureOf(error);
  if (failure) {
    // Timeouts (the page view's deadline included) are never retried here: the member presses Retry.
    const detail = failure.reason === "unreachable" ? "unavailable" : failure.reason;
    return new AuthError("account_api_failed", failure.message, { cause: error, detail });
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const bearer = error.cause.find((challenge) => challenge.scheme === "bearer");
    const code = bearer?.parameters.error;
    const resourceMetadata = bearer?.parameters.resource_metadata;
    if (error.status === 403 || code === "insufficient_scope") {
      // RFC 6750 section 3.1: the challenge names the scope the token lacks.
      return new AuthError("insufficient_scope", "The member has not granted the permission this page needs.", {
        detail: bearer?.parameters.scope ?? "account:read",
      });
    }
    // RFC 9728 section 5.1: a resource_metadata pointer naming another place than our site means our
    // tokens are meant for another resource. That is configuration, not something a new sign-in fixes,
    // and the pointer is never fetched.
    if (resourceMetadata !== undefined && resourceMetadata !== expectedResourceMetadataUrl()) {
      return new AuthError("token_audience_mismatch", "The Account API belongs to another resource than SITE_URL.", { cause: error });
    }
    return new AuthError("unauthenticated", "The site refused the access token.", {
      cause: error,
      detail: resourceMetadata === undefined ? "invalid_token" : "invalid_token_with_metadata",
    });
  }
  if (error instanceof ClientError) {
    const status = error.response.status;
    // GraphQL over HTTP: a query the site cannot run (unknown field, bad argument) comes back as
    // errors with 200 or 400. That is this query's failure, not the site being down.
    if (status < 500 && error.response.errors?.length) {
      return new AuthError("account_api_failed", "The site could not answer this query.", { cause: error, detail: "graphql_error" });
    }
    return new AuthError("account_api_failed", "The site's Account API failed.", { cause: error, detail: `http_${status}` });
  }
  return new AuthError("account_api_failed", "The site's Account API did not answer.", { cause: error, detail: "unavailable" });
}
