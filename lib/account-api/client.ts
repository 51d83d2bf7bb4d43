import "server-only";

import type { GraphQLFormattedError } from "graphql";
import { ClientError, GraphQLClient } from "graphql-request";
import * as oauth from "oauth4webapi";

import { resourceRequestOptions, retryOnceOnDpopNonce } from "@/lib/auth/dpop";
import { getConfig } from "@/lib/config";
import { logEvent } from "@/lib/log/logger";
import { refusalOfChallenge, SiteError } from "@/lib/site/errors";
import { siteFailureDetails } from "@/lib/site/failure-details";
import { siteRequestOptions } from "@/lib/site/oauth-http";
import { SITE_BUSY } from "@/lib/contract/errors";
import { isThrottledStatus } from "@/lib/site/site-busy";
import { siteFailureOf } from "@/lib/site/site-call-policy";
import { siteFetchFor } from "@/lib/site/site-fetch";

import { THROTTLED_CODES, UNAUTHENTICATED_CODES } from "./graphql-codes";
import type { AccountOperation } from "./operation";
import { learnPageCapFromRefusal, pageSizeWithinCap } from "./paging";
import { keptPartialAnswer, optionalFieldsOnErrorPaths } from "./partial-answer";
import { documentForSite, learnMissingFieldsFromRefusal, NO_FIELDS } from "./schema-fitting";

export const ACCOUNT_API_PATH = "/account/graphql";

/**
 * How graphql-request reads the site's JSON: a top-level `"errors": null` or `"extensions": null` is read as
 * left out. The GraphQL spec leaves them out when there are none (section 7.1.2, and 7.1.1: a map if set), but
 * a serializer that writes every field of its response type writes null (Jackson's and System.Text.Json's
 * defaults), and graphql-request would refuse the whole answer as not a GraphQL result.
 */
const SITE_ANSWER_JSON = {
  parse(text: string): unknown {
    const answer: unknown = JSON.parse(text);
    if (answer !== null && typeof answer === "object" && !Array.isArray(answer)) {
      const fields = answer as Record<string, unknown>;
      if (fields.errors === null) delete fields.errors;
      if (fields.extensions === null) delete fields.extensions;
    }
    return answer;
  },
  stringify: (value: unknown) => JSON.stringify(value),
};

/**
 * The one place that calls the Account API, with a named operation of a page (./pages/; the browser can
 * never send arbitrary GraphQL through the BFF). graphql-request frames the GraphQL request; oauth4webapi's
 * protectedResourceRequest attaches the bearer token and parses WWW-Authenticate challenges; siteFetch
 * bounds its time and size. Nothing from the browser's request (cookies, headers) is ever forwarded, and
 * nothing of the answer is read before it is checked against the form the operation asks for.
 *
 * The query is fitted to what this process learned about the site: optional fields it lacks are left
 * out and page sizes stay within the cap it named. When the site refuses the query for one of those
 * reasons, the lesson is remembered and the query is sent once more; nothing else is retried here (a
 * timeout never: the page view's deadline is spent, the member presses Retry). A partial answer whose
 * failed fields the page can do without is kept (./partial-answer.ts).
 */
export async function runAccountOperation<TData>(
  accessToken: string,
  operation: AccountOperation<TData>,
  variables: Record<string, unknown> = {},
  { onFieldsLeftOut }: { onFieldsLeftOut?: (fields: readonly string[]) => void } = {},
): Promise<TData> {
  const url = `${getConfig().siteUrl}${ACCOUNT_API_PATH}`;
  const client = new GraphQLClient(url, {
    // Each document holds exactly one named operation; not re-parsing it on every request saves time.
    excludeOperationName: true,
    jsonSerializer: SITE_ANSWER_JSON,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const target = new URL(input instanceof Request ? input.url : input.toString());
      // A DPoP-bound token goes with a proof (lib/auth/dpop.ts); a Bearer one exactly as before.
      const options = await resourceRequestOptions(target, { ...siteRequestOptions(), [oauth.customFetch]: siteFetchFor("graphql") });
      return retryOnceOnDpopNonce(() =>
        oauth.protectedResourceRequest(
          accessToken,
          "POST",
          target,
          new Headers({ "content-type": "application/json", accept: "application/json" }),
          (init?.body as string | undefined) ?? null,
          options,
        ),
      );
    },
  });
  const optionalFields = operation.optionalFields ?? NO_FIELDS;
  // Optional fields the site failed to resolve in this call's answer, asked for no more in this call.
  const leftOut = new Set<string>();
  // One retry for a missing field, one for a page size, one without failed optional fields: each only when it taught something new.
  for (let attempt = 0; ; attempt += 1) {
    const fitted = fitPageSizes(operation, variables);
    let data: unknown;
    try {
      data = await client.request<unknown>({ document: documentForSite(operation.document, optionalFields, leftOut), variables: fitted });
    } catch (error) {
      const refusal = tokenRefusalWithoutChallenge(error);
      if (refusal) throw refusal;
      const errors = graphqlErrorsOf(error);
      const learned =
        errors.length > 0 &&
        (learnMissingFieldsFromRefusal(errors, optionalFields) || learnPageCapFromRefusal(errors, largestPageSize(operation, fitted)));
      if (learned && attempt < 2) continue;
      // Nothing to learn (a cap named on a nullable list is learned and asked again first).
      const kept = error instanceof ClientError ? keptPartialAnswer(error.response.data, errors, optionalFields) : undefined;
      // A failed optional field whose null reached past it (a non-null field of the schema): the page asks
      // once more without it and shows the rest, rather than nothing (the Overview without its events).
      const failedOptional = !kept && leftOut.size === 0 && attempt < 3 ? optionalFieldsOnErrorPaths(errors, optionalFields) : undefined;
      if (failedOptional) {
        for (const field of failedOptional) leftOut.add(field);
        logEvent(
          "account_api_partial_answer",
          { ...siteFailureDetails(error), failedFields: failedOptional, askedAgainWithout: true },
          "warn",
        );
        onFieldsLeftOut?.(failedOptional);
        continue;
      }
      if (!kept) throw toAccountError(error);
      // The operator hears of it (paths as "Type.field", never a value); the member sees the rest.
      logEvent(
        "account_api_partial_answer",
        {
          ...siteFailureDetails(error),
          failedFields: kept.failedFields,
          ...(kept.itemsLeftOut > 0 ? { itemsLeftOut: kept.itemsLeftOut } : {}),
        },
        "warn",
      );
      return answerOf(operation, kept.data);
    }
    return answerOf(operation, data);
  }
}

/**
 * The site's answer in the form the operation asks for, or a SiteError "unexpected_answer" naming where
 * it differs (a path and what was expected, never a value): an answer is checked before anything reads
 * it (OWASP ASVS 5 V1.5: data from another system is validated), so a site that sends a null, a number
 * or a list where the query asks for something else gets "The site could not answer this request",
 * not a crash of the page.
 */
function answerOf<TData>(operation: AccountOperation<TData>, data: unknown): TData {
  const checked = operation.answer.safeParse(data);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
  const message = `The site's answer does not have the form the query asks for: ${where}: ${issue?.message ?? ""}`;
  throw new SiteError("account_api_failed", message, { detail: "unexpected_answer" });
}

function fitPageSizes(operation: AccountOperation<unknown>, variables: Record<string, unknown>): Record<string, unknown> {
  const fitted = { ...variables };
  for (const name of operation.pageSizeVariables ?? []) {
    const value = fitted[name];
    if (typeof value === "number") fitted[name] = pageSizeWithinCap(value);
  }
  return fitted;
}

function largestPageSize(operation: AccountOperation<unknown>, variables: Record<string, unknown>): number {
  return Math.max(
    0,
    ...(operation.pageSizeVariables ?? []).map((name) => variables[name]).filter((value): value is number => typeof value === "number"),
  );
}

/** The GraphQL errors of a query the site answered with errors (none for other failures). */
function graphqlErrorsOf(error: unknown): readonly GraphQLFormattedError[] {
  if (!(error instanceof ClientError) || error.response.status >= 500) return [];
  return error.response.errors ?? [];
}

/**
 * The site's refusal of the access token when it comes without the Bearer challenge RFC 6750 section 3
 * asks for (a challenge is oauth4webapi's WWWAuthenticateChallengeError, read by refusalOfChallenge): a 401
 * with any body, which says the request lacks valid credentials (RFC 9110 section 15.5.2), or a GraphQL
 * error coded `UNAUTHENTICATED` (or Hot Chocolate's `AUTH_NOT_AUTHENTICATED`: UNAUTHENTICATED_CODES) on the
 * whole request or its root field, as GraphQL servers in Apollo's manner answer, often with 200. Either is
 * answered as a challenge's `invalid_token` is (refresh once, retry once: lib/auth/member-session.ts), not
 * as the site being down or the query being wrong. Without a challenge the site names no resource, so a
 * token meant for another one cannot be told apart (the doctor warns of it).
 */
function tokenRefusalWithoutChallenge(error: unknown): SiteError | undefined {
  if (!(error instanceof ClientError)) return undefined;
  const { status, errors = [] } = error.response;
  const unauthenticated =
    status < 500 && errors.some((failure) => UNAUTHENTICATED_CODES.has(failure.extensions?.code) && (failure.path?.length ?? 0) <= 1);
  if (status !== 401 && !unauthenticated) return undefined;
  return new SiteError("token_refused", "The Account API refused the access token.", {
    cause: error,
    detail: status === 401 ? "invalid_token_without_challenge" : "graphql_unauthenticated",
  });
}

/**
 * True for an answer by which the site says it is busy, not that the query is wrong: 429 (RFC 6585
 * section 4); 403 with `Retry-After`, as GitHub answers past its secondary limits, or with its rate limit
 * used up (`x-ratelimit-remaining: 0`, GitHub's primary limit: isThrottledStatus); or a GraphQL error on
 * the whole request or its root field coded THROTTLED or RATE_LIMITED (in `extensions.code`, or in the
 * `type` GitHub puts beside `message`), which GraphQL sites answer with 200.
 */
function isThrottledAnswer(error: ClientError): boolean {
  const { status, headers, errors = [] } = error.response;
  if (isThrottledStatus(status, headers)) return true;
  return (
    status < 500 &&
    errors.some(
      (failure) =>
        (failure.path?.length ?? 0) <= 1 &&
        (THROTTLED_CODES.has(failure.extensions?.code) || THROTTLED_CODES.has((failure as { type?: unknown }).type)),
    )
  );
}

function toAccountError(error: unknown): SiteError {
  const failure = siteFailureOf(error);
  if (failure) {
    // Timeouts (the page view's deadline included) are never retried here: the member presses Retry.
    const detail = failure.code === "unreachable" ? "unavailable" : failure.code;
    return new SiteError("account_api_failed", failure.message, { cause: error, detail });
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return refusalOfChallenge(error, {
      name: "Account API",
      ownMetadataUrls: [`${getConfig().siteUrl}/.well-known/oauth-protected-resource`],
    });
  }
  if (error instanceof ClientError) {
    const status = error.response.status;
    if (isThrottledAnswer(error)) {
      return new SiteError("account_api_failed", "The site is busy: it limits how often it answers.", { cause: error, detail: SITE_BUSY });
    }
    // GraphQL over HTTP: a query the site cannot run (unknown field, bad argument) comes back as
    // errors with 200 or 400. That is this query's failure, not the site being down.
    if (status < 500 && error.response.errors?.length) {
      return new SiteError("account_api_failed", "The site could not answer this query.", { cause: error, detail: "graphql_error" });
    }
    return new SiteError("account_api_failed", "The site's Account API failed.", { cause: error, detail: `http_${status}` });
  }
  return new SiteError("account_api_failed", "The site's Account API did not answer.", { cause: error, detail: "unavailable" });
}
