import Link from "next/link";

import { getMessages } from "@/lib/i18n";

import { getRequestLocale } from "../_lib/request-locale";
import { API_ROUTES, PAGE_PATHS } from "@/lib/contract/paths";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.signInProblem.title);

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
  const { code } = await searchParams;
  const { locale } = await getRequestLocale();
  const messages = getMessages(locale).signInProblem;
  const known = isKnownCode(code) ? code : "unexpected";
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-5 py-6 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-fg">{messages.title}</h1>
      <p role="alert" className="card w-full border-l-4 border-l-accent p-4 text-fg">
        {messages[known]}
      </p>
      <p className="text-sm text-fg-muted">{messages.detail.replace("{code}", known)}</p>
      <div className="flex flex-wrap gap-3">
        <a className="btn btn-primary" href={API_ROUTES.login}>
          {messages.tryAgain}
        </a>
        <Link className="btn" href={PAGE_PATHS.overview}>
          {messages.home}
        </Link>
      </div>
    </div>
  );
}
