import "server-only";

import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { after } from "next/server";
import type { ReactNode } from "react";

import { SignedOutLandingOnDemand } from "@/components/layout/signed-out-landing-on-demand";
import { ServiceUnavailable } from "@/components/ui/service-unavailable";
import { readPageSession } from "@/lib/auth/page-session";
import type { PagedAccountPageKey } from "@/lib/contract/account-pages";
import type { PublicError } from "@/lib/contract/errors";
import { loginPath, PAGE_PATHS } from "@/lib/contract/paths";
import type { QueryValues } from "@/lib/contract/query-values";
import { parseShownPages } from "@/lib/contract/shown-pages";
import { makeQueryClient } from "@/lib/client/query-client";
import { isDocumentNavigation } from "@/lib/http/document-navigation";
import { isFramedRender } from "@/lib/http/embedding";
import { requestIdOf } from "@/lib/http/request-id";
import { logPageViewLine, millisecondsSince, runWithRequestId, type PageViewOutcome } from "@/lib/log/logger";
import { readOnlyJar } from "@/lib/session/cookie-jar";
import { hasSessionCookie, type SessionData } from "@/lib/session/session";

import { prefetchPagedAccountPage } from "./prefetch-account-page";
import { getRequestLocale } from "./request-locale";

/**
 * Renders a member page: the signed-out landing without a session (or sign-in and back, when the
 * session just ended), "temporarily unavailable" when the shared state does not answer, otherwise the
 * page's client view hydrated with data prefetched on the server, so the first HTML already holds it.
 * A prefetch that fails hands the browser its error as the BFF would have told it (app/_lib/
 * prefetch-account-page.ts), so the page shows its own error with Retry at once; other pages are unaffected.
 * Each render logs one `page_view` line once its answer is sent (README, Logs).
 */
export async function renderMemberPage(
  path: string,
  prefetch: (queryClient: QueryClient, session: SessionData) => Promise<unknown>,
  view: ReactNode,
): Promise<ReactNode> {
  const started = performance.now();
  const requestHeaders = await headers();
  // The id the proxy put in the request and the answer: on the page view's line and on what its prefetch logs.
  const requestId = requestIdOf(requestHeaders);
  const navigation = isDocumentNavigation(requestHeaders) ? "document" : "router";
  const logPageView = (outcome: PageViewOutcome, errorCode?: string) =>
    after(() =>
      runWithRequestId(requestId, () =>
        logPageViewLine({ page: path, navigation, outcome, ...(errorCode ? { errorCode } : {}), durationMs: millisecondsSince(started) }),
      ),
    );

  const page = await readPageSession();
  if (page.kind === "unavailable") {
    logPageView("unavailable");
    return <ServiceUnavailable retryPath={path} locale={(await getRequestLocale()).locale} />;
  }
  if (page.kind === "none") {
    const embedded = await isFramedRender();
    // A session that just ended goes straight back to sign-in; inside a frame, sign-in starts from a click.
    if (!embedded && hasSessionCookie(readOnlyJar(await cookies()))) {
      logPageView("sign_in_again");
      redirect(loginPath(path));
    }
    logPageView("signed_out");
    return <SignedOutLandingOnDemand returnTo={path} />;
  }
  const { session } = page;
  const queryClient = makeQueryClient();
  // Never call the site with a token the proxy could not renew: the browser's request can renew it.
  // Each query function bounds itself and turns a failure into the public error (prefetch-account-page.ts).
  if (session.accessTokenExpiresAt > Date.now()) {
    await runWithRequestId(requestId, () => prefetch(queryClient, session));
    const failed = queryClient
      .getQueryCache()
      .getAll()
      .find((query) => query.state.status === "error");
    logPageView(failed ? "error" : "shown", failed ? publicErrorCode(failed.state.error) : undefined);
  } else {
    logPageView("not_prefetched");
  }
  return <HydrationBoundary state={dehydrate(queryClient)}>{view}</HydrationBoundary>;
}

/**
 * The page of a list read in pages (Orders, Events, and Courses past its first load of enrollments): as
 * many pages as the URL's `pages` asks for (lib/contract/shown-pages.ts) are read on the server and are in
 * the first HTML.
 */
export async function renderPagedMemberPage(
  key: PagedAccountPageKey,
  searchParams: Promise<QueryValues>,
  view: ReactNode,
): Promise<ReactNode> {
  const pages = parseShownPages(await searchParams);
  return renderMemberPage(PAGE_PATHS[key], prefetchPagedAccountPage(key, pages), view);
}

/** The code of the public error a failed prefetch keeps as its query's error (prefetch-account-page.ts). */
function publicErrorCode(error: unknown): string | undefined {
  const code = (error as Partial<PublicError> | null)?.code;
  return typeof code === "string" ? code : undefined;
}
