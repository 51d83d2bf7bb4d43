"use client";

import { useBrowserValue } from "@/lib/client/use-browser-value";
import { sanitizeReturnTo } from "@/lib/contract/return-to";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { SignedOutLanding, type SignedOutReason, type SiteSessionAfterSignOut } from "./signed-out-landing";

/** Where Sign in leads back to: the address's `returnTo`, a same-origin path only (OWASP ASVS 5 V3.7.2), else the overview. */
function returnToOfAddress(): string {
  return sanitizeReturnTo(new URLSearchParams(window.location.search).get("returnTo"), window.location.origin);
}

/**
 * The signed-out page's landing (app/(public)/signed-out): the page is prerendered, so the page to go
 * back to after signing in is read from the address once in the browser (the overview until then; the
 * sign-in route checks it again).
 */
export function SignedOutPageLanding({ reason, siteSession }: { reason: SignedOutReason; siteSession: SiteSessionAfterSignOut | null }) {
  const returnTo = useBrowserValue(returnToOfAddress, PAGE_PATHS.overview);
  return <SignedOutLanding reason={reason} siteSession={siteSession} returnTo={returnTo} />;
}
