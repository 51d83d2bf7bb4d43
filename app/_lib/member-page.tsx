import "server-only";

import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";

import { SignedOutLanding } from "@/components/layout/signed-out-landing";
import { ServiceUnavailable } from "@/components/ui/service-unavailable";
import { readPageSession } from "@/lib/auth/page-session";
import { ApiError } from "@/lib/client/api";
import { loginPath } from "@/lib/contract/paths";
import { makeQueryClient } from "@/lib/client/query-client";
import { isFramedRender } from "@/lib/http/embedding";
import { describeApiError, logFailure } from "@/lib/http/error-responses";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-deadline";
import { readOnlyJar } from "@/lib/session/cookie-jar";
import { hasSessionCookie, type SessionData } from "@/lib/session/session";

/**
 * Renders a member page: the signed-out landing without a session (or sign-in and back, when the
 * session just ended), "temporarily unavailable" when the shared state does not answer, otherwise the
 * page's client view hydrated with data prefetched on the server, so the first HTML already holds it.
 * The prefetch has one deadline (PAGE_VIEW_DEADLINE_MS) for all it asks the site. A prefetch that fails
 * hands its error to the browser as the BFF would have told it, so the page shows its own error with
 * Retry at once, without asking the site a second time; other pages are unaffected.
 */
export async function renderMemberPage(
  path: string,
  prefetch: (queryClient: QueryClient, session: SessionData) => Promise<unknown>,
  view: ReactNode,
): Promise<ReactNode> {
  const page = await readPageSession();
  if (page.kind === "unavailable") return <ServiceUnavailable retryPath={path} />;
  if (page.kind === "none") {
    const embedded = await isFramedRender();
    // A session that just ended goes straight back to sign-in; inside a frame, sign-in starts from a click.
    if (!embedded && hasSessionCookie(readOnlyJar(await cookies()))) redirect(loginPath(path));
    return <SignedOutLanding returnTo={path} embedded={embedded} />;
  }
  const { session } = page;
  const queryClient = makeQueryClient();
  // Never call the site with a token the proxy could not renew: the browser's request can renew it.
  if (session.accessTokenExpiresAt > Date.now()) {
    let prefetching: Promise<unknown> = Promise.resolve();
    await withSiteDeadline(PAGE_VIEW_DEADLINE_MS, () => (prefetching = prefetch(queryClient, session))).catch(() => undefined);
    // At the deadline every request is aborted: let the queries record their errors (a moment), so the
    // browser is handed the error rather than a pending query it would send again.
    await Promise.race([prefetching, new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_DEADLINE_MS))]);
    serializePrefetchErrors(queryClient);
  }
  return <HydrationBoundary state={dehydrate(queryClient)}>{view}</HydrationBoundary>;
}

const SETTLE_AFTER_DEADLINE_MS = 500;

/**
 * Replaces each failed prefetch's server error (never sent as is) with what the BFF would answer. A
 * query still pending (something ignored the abort) is left to the browser.
 */
function serializePrefetchErrors(queryClient: QueryClient): void {
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.state.status === "pending") {
      queryClient.getQueryCache().remove(query);
      continue;
    }
    if (query.state.status !== "error") continue;
    const described = describeApiError(query.state.error);
    // A refused token is the BFF route's to handle (it refreshes, or sends the member to sign in).
    if (described.code === "unauthenticated") {
      queryClient.getQueryCache().remove(query);
      continue;
    }
    logFailure(query.state.error, described.code);
    const error = new ApiError(described.status, described.code, described.message, described.detail).toJSON();
    // Both places hold the server's error (with its cause chain): neither may reach the browser.
    query.setState({ ...query.state, error: error as unknown as Error, fetchFailureReason: error as unknown as Error });
  }
}
