import "server-only";

import * as oauth from "oauth4webapi";

import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";
import type { SessionData } from "@/lib/session/session";
import { getSharedState } from "@/lib/session/shared-state";

import type { Locale } from "@/lib/i18n/locales";

import { AuthError } from "./errors";

/** A handoff lives one minute. */
export const HANDOFF_TTL_MS = 60_000;
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isValidBinding(value: string | null): value is string {
  return value !== null && BINDING_PATTERN.test(value);
}

/** A sign-in in the embedded panel's popup: the hash binding its handoff, and the panel's language. */
export interface PopupSignIn {
  binding: string;
  locale: Locale | null;
}

/**
 * Sign-in from the embedded dashboard runs in a top-level popup (the site's authorization page is never
 * framed), and the popup's cookies do not reach the frame's partition. So the popup hands the new session
 * to the frame: it posts a one-time code to its opener (same origin only), and the frame redeems it.
 * The code is bound like PKCE (RFC 7636 section 4.6): the frame sent the S256 hash of a secret it kept
 * in memory, and only that secret redeems the code, so a code seen elsewhere is worthless. The frame may
 * redeem it again within the minute: a browser that refused the first cookie is asked for storage access
 * on a second click, after which the same frame redeems once more.
 */
export async function createHandoff(session: SessionData, binding: string): Promise<string> {
  const code = oauth.generateRandomState();
  const sealed = await sealWithSessionSecret({ session, binding }, HANDOFF_TTL_MS / 1000);
  await getSharedState().remember(`handoff:${code}`, sealed, HANDOFF_TTL_MS);
  return code;
}

export async function redeemHandoff(code: string, verifier: string): Promise<SessionData> {
  const sealed = code.length <= 64 ? await getSharedState().recall(`handoff:${code}`) : undefined;
  if (!sealed) throw new AuthError("login_expired", "This sign-in handoff is unknown or expired.");
  // The seal keeps its own minute, whatever the shared state does: one that kept the code longer (or a
  // copy put back) yields a seal that opens empty.
  const { session, binding } = await openSessionSeal<Partial<{ session: SessionData; binding: string }>>(sealed);
  if (!session || !binding) throw new AuthError("login_expired", "This sign-in handoff is unknown or expired.");
  if (verifier.length < 43 || verifier.length > 128 || (await oauth.calculatePKCECodeChallenge(verifier)) !== binding) {
    throw new AuthError("login_state_mismatch", "This sign-in handoff belongs to another frame.");
  }
  return session;
}
