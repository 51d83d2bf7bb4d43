import "server-only";

import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { oauthClient, siteRequestOptions } from "@/lib/site/oauth-http";
import { SITE_BUSY } from "@/lib/contract/errors";
import { isThrottledAnswer } from "@/lib/site/site-busy";

import { dpopOptions, sendOnceMoreOnDpopNonce, type DpopKey } from "./dpop";
import { AuthError, safeOAuthErrorCode } from "./errors";

/** RFC 9126 section 2.2: the `request_uri` a PAR endpoint returns is a URN of this form. */
export const REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

/**
 * How the sign-in reaches the authorization endpoint. With `pushed_authorization_request_endpoint`
 * listed, the request is pushed (RFC 9126); a site that sets `require_pushed_authorization_requests`
 * without listing the endpoint cannot be signed in to at all (RFC 9126 section 5): a configuration error.
 */
export function usesPushedAuthorization(as: oauth.AuthorizationServer): boolean {
  if (typeof as.pushed_authorization_request_endpoint === "string") return true;
  if (as.require_pushed_authorization_requests === true) {
    throw new AuthError("site_misconfigured", "The site requires pushed authorization requests but lists no PAR endpoint.", {
      detail: "par_endpoint_missing",
    });
  }
  return false;
}

/**
 * RFC 9126: pushes the authorization request's parameters over the back channel, authenticated with the
 * client's secret (client_secret_post), and returns the URL the browser is sent to, which holds only
 * `client_id` and the one-time `request_uri` (section 4): scope, resource, the PKCE challenge, state and
 * nonce never reach the address bar or its history. A PAR endpoint that refuses, fails, hangs or answers
 * something else than a `urn:ietf:params:oauth:request_uri:` value ends the sign-in before any redirect.
 */
export async function pushAuthorizationRequest(
  as: oauth.AuthorizationServer,
  parameters: URLSearchParams,
  dpopKey?: DpopKey,
): Promise<URL> {
  const { client, auth } = oauthClient();
  let requestUri: string;
  try {
    // RFC 9449 section 10.1: with DPoP, the push carries a proof of the session's key too.
    const options = dpopKey
      ? await dpopOptions(dpopKey, as.pushed_authorization_request_endpoint!, siteRequestOptions())
      : siteRequestOptions();
    const response = await sendOnceMoreOnDpopNonce(() => oauth.pushedAuthorizationRequest(as, client, auth, parameters, options));
    const result = await oauth.processPushedAuthorizationResponse(as, client, response);
    requestUri = result.request_uri;
  } catch (error) {
    throw toPushError(error);
  }
  if (!requestUri.startsWith(REQUEST_URI_PREFIX) || requestUri.length === REQUEST_URI_PREFIX.length || requestUri.length > 512) {
    throw new AuthError("pushed_request_failed", "The site's PAR endpoint answered a request_uri that is not a request URN.", {
      detail: "request_uri",
    });
  }
  const url = new URL(as.authorization_endpoint!);
  url.search = "";
  url.searchParams.set("client_id", getConfig().clientId);
  url.searchParams.set("request_uri", requestUri);
  return url;
}

/** The PAR endpoint's answer, as the sign-in error it is. */
function toPushError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new AuthError("pushed_request_failed", "The site's PAR endpoint refused the authorization request.", {
      cause: error,
      detail: error.status >= 500 ? "unavailable" : isThrottledAnswer(error) ? SITE_BUSY : safeOAuthErrorCode(error.error),
    });
  }
  // A 5xx, a timeout, a refused connection, non-JSON or a 200 instead of 201: the request was not pushed.
  return new AuthError("pushed_request_failed", "The site's PAR endpoint did not answer properly.", {
    cause: error,
    detail: isThrottledAnswer(error) ? SITE_BUSY : "unavailable",
  });
}
