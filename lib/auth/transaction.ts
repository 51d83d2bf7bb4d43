import "server-only";

import type { CookieJar } from "iron-session";

import type { DpopKey } from "@/lib/auth/dpop";
import { getConfig } from "@/lib/config";
import { AuthError } from "@/lib/auth/errors";
import type { Locale } from "@/lib/i18n/locales";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";

/** One sign-in attempt: kept in its own short-lived encrypted cookie, apart from the session. */
export interface LoginTransaction {
  state: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
  createdAt: number;
  /** Set when the sign-in runs in a popup for the embedded dashboard: the hash binding its handoff. */
  popupBinding?: string;
  /** With `popupBinding`: the panel's language, which the popup's pages speak (POPUP_LOCALE_PARAM). */
  popupLocale?: Locale;
  /** The new session's DPoP private key (RFC 9449), when this sign-in binds its tokens. Sealed with the rest. */
  dpopKey?: DpopKey;
}

export const TRANSACTION_TTL_SECONDS = 10 * 60;
/** Browsers drop a cookie whose Set-Cookie line exceeds 4,096 bytes (RFC 6265 section 6.1); we stay under it. */
export const MAX_TRANSACTION_COOKIE_BYTES = 4096;
/** At most this many pending sign-ins per browser; the oldest are dropped, so abandoned attempts do not pile up. */
export const MAX_PENDING_TRANSACTIONS = 3;
const PREFIX = "dash_tx_";

function cookiePrefix(): string {
  return getConfig().secureCookies ? `__Host-${PREFIX}` : PREFIX;
}

/** The cookie is keyed by `state`, so two tabs signing in at once each find their own transaction. */
export function transactionCookieName(state: string): string {
  return `${cookiePrefix()}${state.slice(0, 16)}`;
}

function cookieOptions(maxAge: number) {
  const config = getConfig();
  // SameSite=Lax: the site's redirect back to the callback is a top-level GET navigation, which carries Lax cookies.
  return { httpOnly: true, secure: config.secureCookies, sameSite: "lax" as const, path: "/", maxAge };
}

export async function saveTransaction(jar: CookieJar, transaction: LoginTransaction): Promise<void> {
  const pending = (jar.names?.() ?? []).filter((name) => name.startsWith(cookiePrefix()));
  const sealed = await sealWithSessionSecret(transaction, TRANSACTION_TTL_SECONDS);
  if (pending.length >= MAX_PENDING_TRANSACTIONS) {
    const opened = await Promise.all(pending.map(async (name) => ({ name, transaction: await openSealed(jar.read(name)) })));
    opened.sort((a, b) => (a.transaction?.createdAt ?? 0) - (b.transaction?.createdAt ?? 0));
    for (const { name } of opened.slice(0, pending.length - MAX_PENDING_TRANSACTIONS + 1)) jar.write(name, "", cookieOptions(0));
  }
  const name = transactionCookieName(transaction.state);
  // Name, value and attributes: a cookie the browser would drop means a sign-in that can never finish.
  if (name.length + sealed.length + TRANSACTION_COOKIE_ATTRIBUTE_BYTES >= MAX_TRANSACTION_COOKIE_BYTES) {
    throw new AuthError("sign_in_too_large", "The sign-in attempt would not fit in a cookie.", { detail: "transaction" });
  }
  jar.write(name, sealed, cookieOptions(TRANSACTION_TTL_SECONDS));
}

/** `; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax` and the `=`, generously. */
const TRANSACTION_COOKIE_ATTRIBUTE_BYTES = 80;

async function openSealed(sealed: string | undefined): Promise<LoginTransaction | null> {
  if (!sealed) return null;
  const data = await openSessionSeal<Partial<LoginTransaction>>(sealed);
  if (typeof data.state !== "string" || typeof data.codeVerifier !== "string" || typeof data.nonce !== "string") return null;
  return data as LoginTransaction;
}

/** The transaction for `state` in its cookie. Null when there is none (expired, foreign, or tampered). */
async function readTransaction(jar: CookieJar, state: string): Promise<LoginTransaction | null> {
  const transaction = await openSealed(jar.read(transactionCookieName(state)));
  // The cookie name holds only a prefix of state: the sealed value must hold exactly this state.
  if (!transaction || transaction.state !== state) return null;
  if (Date.now() - transaction.createdAt > TRANSACTION_TTL_SECONDS * 1000) return null;
  return transaction;
}

/**
 * The embedded panel's popup a sign-in runs in, read from its transaction without taking it: a callback
 * refused before its turn (past the rate limit) leaves the transaction unspent, and its problem page
 * still knows it is in the panel's popup. Undefined for a top-level sign-in or no valid transaction.
 */
export async function popupOfTransaction(
  jar: CookieJar,
  state: string | null,
): Promise<{ binding: string; locale: Locale | null } | undefined> {
  const transaction = state ? await readTransaction(jar, state) : null;
  if (!transaction?.popupBinding) return undefined;
  return { binding: transaction.popupBinding, locale: transaction.popupLocale ?? null };
}

/** Finds and removes the transaction for `state`. Null when there is none (expired, foreign, or tampered). */
export async function takeTransaction(jar: CookieJar, state: string): Promise<LoginTransaction | null> {
  const name = transactionCookieName(state);
  if (jar.read(name) === undefined) return null;
  const transaction = await readTransaction(jar, state);
  jar.write(name, "", cookieOptions(0));
  return transaction;
}
