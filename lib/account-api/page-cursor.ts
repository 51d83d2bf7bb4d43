import "server-only";

import { RequestError } from "@/lib/http/request-errors";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "@/lib/session/session";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";

/**
 * The cursors the browser holds for "Show more" (`nextCursor`, sent back as `?after=`). Each one is the
 * site's cursor sealed with SESSION_SECRET (iron-session, lib/session/seal.ts) together with the list and
 * the member it belongs to. So a cursor the dashboard did not hand out, or handed out for another list or
 * another member, is refused here with a 400 before the site is asked (OWASP ASVS 5 V2.2.1, input validated
 * against what the dashboard expects), instead of reaching the site as an opaque string and coming back as
 * the site's refusal. The site's own cursor never reaches the browser.
 */
export interface PageCursorBinding {
  /** The account page the cursor goes on in (courses, orders, events). */
  page: string;
  /** The member's subject at the site (the session's `sub`). */
  member: string;
}

interface SealedCursor {
  page: string;
  member: string;
  siteCursor: string;
}

/** A cursor lives no longer than the sign-in it was handed out in can (session.ts, the absolute lifetime). */
const CURSOR_LIFETIME_SECONDS = SESSION_ABSOLUTE_LIFETIME_MS / 1000;

/** The site's `endCursor`, sealed for the browser, bound to its page and member. */
export function sealPageCursor(siteCursor: string, binding: PageCursorBinding): Promise<string> {
  const sealed: SealedCursor = { page: binding.page, member: binding.member, siteCursor };
  return sealWithSessionSecret(sealed, CURSOR_LIFETIME_SECONDS);
}

/** The site's cursor inside a cursor from {@link sealPageCursor}, or a RequestError "invalid_cursor". */
export async function openPageCursor(cursor: string, binding: PageCursorBinding): Promise<string> {
  const opened = await openSessionSeal<Partial<SealedCursor>>(cursor);
  if (opened.page !== binding.page || opened.member !== binding.member || typeof opened.siteCursor !== "string") {
    throw new RequestError("invalid_cursor", "The page cursor was not given out by the dashboard for this list.");
  }
  return opened.siteCursor;
}
