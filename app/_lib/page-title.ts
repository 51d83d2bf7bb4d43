import "server-only";

import type { Metadata } from "next";

import { getMessages, type Locale, type Messages } from "@/lib/i18n";

import { documentTitle } from "./document-metadata";
import { getRequestLocale } from "./request-locale";

/**
 * A page's `generateMetadata`: its document title in the member's language (a screen reader announces
 * it on every navigation), e.g. `export const generateMetadata = localizedTitle((m) => m.nav.courses)`.
 */
export function localizedTitle(
  pick: (messages: Messages, locale: Locale) => string,
  options: { besideTheLayout?: boolean } = {},
): () => Promise<Metadata> {
  return async () => {
    const { locale } = await getRequestLocale();
    const title = pick(getMessages(locale), locale);
    // A layout's title template names the app for the pages below it, not for the page at its own path
    // (Next.js, generateMetadata: title.template): Overview, at "/", is given its whole title.
    return { title: options.besideTheLayout ? documentTitle(locale, title) : title };
  };
}
