import { PageLink } from "@/components/ui/page-link";

import { CloseWindowButton } from "@/components/layout/close-window-button";
import { isValidBinding } from "@/lib/auth/embedded-handoff";
import {
  describeScope,
  getMessages,
  inTimeFromNow,
  interpolate,
  isLocale,
  POPUP_LOCALE_PARAM,
  popupPagePath,
  type Locale,
} from "@/lib/i18n";
import { SIGN_IN_PROBLEM_WORDS } from "@/lib/i18n/messages/sign-in-problem";

import { getRequestLocale } from "@/app/_lib/request-locale";
import { SITE_BUSY } from "@/lib/contract/errors";
import { API_ROUTES, PAGE_PATHS, RETRY_AFTER_PARAM, signInWaitOf } from "@/lib/contract/paths";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((_, locale) => SIGN_IN_PROBLEM_WORDS[locale].title);

const KNOWN_CODES = [
  "site_unavailable",
  "site_misconfigured",
  "login_expired",
  "login_state_mismatch",
  "callback_replayed",
  "authorization_denied",
  "authorization_failed",
  "issuer_mismatch",
  "token_exchange_failed",
  "id_token_invalid",
  "userinfo_mismatch",
  "temporarily_unavailable",
  "scope_not_granted",
  "pushed_request_failed",
  "sign_in_too_large",
  "rate_limited",
] as const;
type KnownCode = (typeof KNOWN_CODES)[number];

function isKnownCode(value: unknown): value is KnownCode {
  return typeof value === "string" && (KNOWN_CODES as readonly string[]).includes(value);
}

/** Where every sign-in failure ends: our own words for a stable code; nothing from the site is rendered. */
export default async function SignInProblemPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { code, detail, binding, [POPUP_LOCALE_PARAM]: panelLocale, [RETRY_AFTER_PARAM]: retryAfter } = await searchParams;
  const { locale } = await getRequestLocale();
  const all = getMessages(locale);
  const messages = SIGN_IN_PROBLEM_WORDS[locale];
  const known = isKnownCode(code) ? code : "unexpected";
  // A permission the member did not grant is named, in our own words for it (never the site's text).
  const missing = known === "scope_not_granted" ? plainScopes(detail) : [];
  const several = missing.length > 1;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-5 py-6 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-fg">{messages.title}</h1>
      <p role="alert" className="card w-full border-l-4 border-l-accent p-4 text-fg">
        {several ? messages.scopesNotGranted : problemText(known, detail, retryAfter, locale)}
      </p>
      {missing.length > 0 ? (
        <ul className="list-disc pl-6 text-fg">
          {missing.map((scope) => (
            <li key={scope}>{interpolate(messages.missingPermission, { permission: describeScope(scope, all), scope })}</li>
          ))}
        </ul>
      ) : null}
      <p className="text-sm text-fg-muted">{messages.detail.replace("{code}", known)}</p>
      <div className="flex flex-wrap gap-3">
        <a className="btn btn-primary" href={retryHref(binding, panelLocale)}>
          {known !== "scope_not_granted" ? messages.tryAgain : several ? messages.signInAgainAllowingThem : messages.signInAgainAllowing}
        </a>
        {/* In the embedded panel's popup, the dashboard is the panel behind it: the way back is closing the popup. */}
        {isValidBinding(typeof binding === "string" ? binding : null) ? (
          <CloseWindowButton label={messages.closeWindow} fallbackHref={PAGE_PATHS.overview} />
        ) : (
          <PageLink className="btn btn-secondary" href={PAGE_PATHS.overview}>
            {messages.home}
          </PageLink>
        )}
      </div>
    </div>
  );
}

/**
 * What went wrong in the member's words, with how long to wait when the address names it: too many attempts
 * here, or a site that limits how often it answers (`detail` site_busy) or is down for a while.
 */
function problemText(
  known: KnownCode | "unexpected",
  detail: string | string[] | undefined,
  retryAfter: string | string[] | undefined,
  locale: Locale,
): string {
  const messages = SIGN_IN_PROBLEM_WORDS[locale];
  const siteFailed = known === "site_unavailable" || known === "pushed_request_failed";
  const wait = known === "rate_limited" || siteFailed ? signInWaitOf(retryAfter) : undefined;
  const when = wait === undefined ? undefined : inTimeFromNow(wait, locale);
  if (siteFailed && detail === SITE_BUSY) return when === undefined ? messages.siteBusy : interpolate(messages.siteBusyFor, { when });
  if (when === undefined) return messages[known];
  return interpolate(siteFailed ? messages.siteDownFor : messages.rateLimitedFor, { when });
}

/** The scope names of `detail` that are plain tokens (at most four): nothing else from the URL is shown. */
function plainScopes(detail: string | string[] | undefined): string[] {
  if (typeof detail !== "string") return [];
  return detail
    .split(" ")
    .filter((scope) => /^[A-Za-z0-9:._-]{1,64}$/.test(scope))
    .slice(0, 4);
}

/**
 * Where "try again" starts: in the embedded panel's popup (a valid handoff binding in the URL), the same
 * popup sign-in, whose end the panel is still waiting for, still in the panel's language; otherwise a
 * top-level sign-in.
 */
function retryHref(binding: string | string[] | undefined, panelLocale: string | string[] | undefined): string {
  if (typeof binding !== "string" || !isValidBinding(binding)) return API_ROUTES.login;
  const locale = isLocale(panelLocale) ? panelLocale : null;
  return popupPagePath(`${API_ROUTES.login}?${new URLSearchParams({ display: "popup", binding }).toString()}`, locale);
}
