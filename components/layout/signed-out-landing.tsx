"use client";

import { signInLinkPath, type SignedOutReason } from "@/lib/contract/paths";
import type { SiteSessionAfterSignOut } from "@/lib/contract/signed-out-copies";
import { interpolate, siteCalled, type Messages } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";

import { EmbeddedSignIn } from "./embedded-sign-in";
import { useEmbedding } from "./embedding-context";
import { useSiteInfo, useSiteInfoUnavailable } from "./site-info";

export type { SignedOutReason, SiteSessionAfterSignOut };

/** What is known of the member's session at the site; in the panel, the site is the page around it. */
const SITE_NOTICES: Record<SiteSessionAfterSignOut, (messages: Messages, embedded: boolean) => string> = {
  ended: (messages) => messages.signedOutPage.siteSignedOut,
  open: (messages, embedded) => (embedded ? messages.signedOutPage.siteStillSignedInAround : messages.signedOutPage.siteStillSignedIn),
  unconfirmed: (messages) => messages.signedOutPage.siteUnconfirmed,
};

const NOTICES: Record<SignedOutReason, (messages: Messages) => string> = {
  revoked: (messages) => messages.landing.revoked,
  expired: (messages) => messages.landing.expired,
  signed_out: (messages) => messages.landing.signedOut,
  signed_out_locally: (messages) => messages.landing.signedOutLocally,
  revoke_refused: (messages) => messages.landing.revokeRefused,
  access_withdrawn: (messages) => messages.landing.accessWithdrawn,
};

/**
 * The signed-out landing: what the dashboard is, why the member is signed out, what is known of their
 * session at the site (by the site's name, with a link to it, once the site is known), and "Sign in".
 */
export function SignedOutLanding({
  reason = null,
  returnTo = "/",
  siteSession = null,
}: {
  reason?: SignedOutReason | null;
  returnTo?: string;
  siteSession?: SiteSessionAfterSignOut | null;
}) {
  const site = useSiteInfo();
  const siteUnavailable = useSiteInfoUnavailable();
  const { messages, locale } = useI18n();
  // The document's own request decided it (components/layout/embedding-context.tsx): a client navigation's does not say.
  const { embedded } = useEmbedding();
  const notice = reason ? NOTICES[reason](messages) : null;
  const siteName = siteCalled(messages, site?.name ?? null);
  // The sentence waits for the site's name, unless it cannot be had: then it says "the site" rather than
  // nothing, since the member may still be signed in there (and the link to it is left out).
  const siteNotice =
    siteSession && (site || siteUnavailable) ? interpolate(SITE_NOTICES[siteSession](messages, embedded), { site: siteName }) : null;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-5 py-6 sm:py-12">
      {notice ? (
        <p role="status" className="card w-full border-l-4 border-l-accent p-4 text-fg">
          {notice}
          {siteNotice ? (
            <>
              {locale === "en" ? " " : ""}
              {siteNotice}
            </>
          ) : null}
        </p>
      ) : null}
      {/* In the panel the site is already around it (and its pages refuse to be framed): no link to open it. */}
      {siteNotice && siteSession !== "ended" && site && !embedded ? (
        <a className="btn btn-secondary" href={site.url}>
          {interpolate(messages.signedOutPage.openSite, { site: siteName })}
        </a>
      ) : null}
      {/* Chinese breaks between any two characters: keep-all breaks the title only after its punctuation
          ("課程、" / "訂單與活動，" / "一次看清楚" in the panel on a phone, not "…訂單與活" / "動，…"); a line with
          no such place still wraps rather than overflow. English is unchanged. */}
      <h1 className="text-3xl font-semibold tracking-tight text-fg break-keep wrap-anywhere sm:text-4xl">{messages.landing.title}</h1>
      <p className="text-lg text-fg-muted">{messages.landing.body}</p>
      {embedded ? (
        <EmbeddedSignIn returnTo={returnTo} />
      ) : (
        // The page's address goes to the sign-in route (signInLinkPath) from this link alone (the
        // document's policy is no-referrer), and only to this origin.
        <a className="btn btn-primary" href={signInLinkPath(returnTo)} referrerPolicy="same-origin">
          {messages.landing.signIn}
        </a>
      )}
    </div>
  );
}
