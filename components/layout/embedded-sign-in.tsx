"use client";

import { useState, type MouseEvent } from "react";

import { newHandoffSecret, openPopupAndAwait, SIGNED_IN_MESSAGE } from "@/lib/client/embedding";
import { asApiError, postJsonAction } from "@/lib/client/api";
import { API_ROUTES, signInLinkPath } from "@/lib/contract/paths";
import { popupPagePath } from "@/lib/i18n/locales";
import { EMBEDDED_SIGN_IN_WORDS } from "@/lib/i18n/messages/embedded-sign-in";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { useErrorReason } from "@/components/ui/error-panel";

type Status = "idle" | "waiting" | "needs-access" | "blocked" | "cookies-blocked" | "rate-limited" | "failed";
interface Handoff {
  code: string;
  verifier: string;
}

/**
 * Sign-in for the dashboard embedded in the site's page. The site's authorization page is never framed,
 * so the button opens the normal sign-in in a popup; the popup hands the new session back to this frame
 * (lib/auth/embedded-handoff.ts), which keeps it in its own partitioned cookie. A browser that keeps
 * even that cookie out of the frame is asked for storage access (Storage Access API) on a second click. A link to open the
 * dashboard in its own tab always remains.
 *
 * "Sign in" is a link to the top-level sign-in in a new tab, which the script turns into the popup once the
 * page is hydrated: a tap before that (a phone still loading the scripts) still starts a sign-in, in a tab
 * of its own, rather than doing nothing. A ctrl-, shift- or middle-click keeps the link's own new tab.
 */
export function EmbeddedSignIn({ returnTo }: { returnTo: string }) {
  const { messages, locale } = useI18n();
  const words = useWords(EMBEDDED_SIGN_IN_WORDS);
  const [status, setStatus] = useState<Status>("idle");
  const [pending, setPending] = useState<Handoff | null>(null);
  // Past the sign-in rate limit: the refusal, whose words (and wait) are the error panel's.
  const [refusal, setRefusal] = useState<unknown>(null);
  const { reason: refusalReason } = useErrorReason(refusal);

  /** Redeems the handoff into this frame's cookie; false when the browser kept the cookie out. */
  async function redeem(handoff: Handoff): Promise<boolean> {
    await postJsonAction(API_ROUTES.embedded, handoff);
    const session = await fetch(API_ROUTES.session, { credentials: "same-origin", cache: "no-store" });
    if (!session.ok) return false;
    window.location.replace(returnTo);
    return true;
  }

  function onSignInClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void signIn();
  }

  async function signIn() {
    const { verifier, binding } = await newHandoffSecret();
    const { result } = openPopupAndAwait<{ type: string; code: string }>(
      popupPagePath(`${API_ROUTES.login}?display=popup&binding=${binding}`, locale),
      "companion-dashboard-sign-in",
      SIGNED_IN_MESSAGE,
    );
    setStatus("waiting");
    try {
      const { code } = await result;
      if (await redeem({ code, verifier })) return;
      // The browser kept this frame's cookie out: where it can, ask for storage access on a new click.
      if (storageAccessApiAvailable()) {
        setPending({ code, verifier });
        setStatus("needs-access");
      } else {
        setStatus("cookies-blocked");
      }
    } catch (error) {
      failed(error);
    }
  }

  function failed(error: unknown) {
    const apiError = asApiError(error);
    if (apiError?.kind === "rate_limited") {
      setRefusal(apiError);
      setStatus("rate-limited");
    } else {
      setStatus(statusOf(error));
    }
  }

  async function continueWithStorageAccess() {
    if (!pending) return;
    try {
      // Storage Access API: asked on this click, as browsers require.
      await document.requestStorageAccess().catch(() => undefined);
      if (!(await redeem(pending))) setStatus("cookies-blocked");
    } catch (error) {
      failed(error);
    }
  }

  const notice = {
    idle: null,
    waiting: words.waiting,
    "needs-access": words.needsAccess,
    blocked: words.popupBlocked,
    "cookies-blocked": words.cookiesBlocked,
    "rate-limited": refusalReason,
    failed: words.failed,
  }[status];
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-fg-muted">{words.signInHelp}</p>
      {status === "needs-access" ? (
        <button type="button" className="btn btn-primary" onClick={() => void continueWithStorageAccess()}>
          {words.continue}
        </button>
      ) : (
        <a
          href={signInLinkPath(returnTo)}
          target="_blank"
          rel="noopener"
          referrerPolicy="same-origin"
          className="btn btn-primary"
          onClick={onSignInClick}
          aria-busy={status === "waiting"}
        >
          {messages.landing.signIn}
        </a>
      )}
      {/* Always there, empty while idle: a live region that appears with its words already in it is often
          not read out. Empty, it takes back the gap it adds. */}
      <p role="status" className="text-fg empty:-mb-3">
        {notice}
      </p>
      <a href={returnTo} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center text-accent underline">
        {messages.embedded.openInNewTab}
      </a>
    </div>
  );
}

function statusOf(error: unknown): Status {
  const reason = error instanceof Error ? error.message : "";
  if (reason === "popup_blocked") return "blocked";
  if (reason === "cookies_blocked") return "cookies-blocked";
  return "failed";
}

function storageAccessApiAvailable(): boolean {
  return typeof document.requestStorageAccess === "function";
}
