import "server-only";

import type { Metadata } from "next";

import { getMessages, type Locale, type Messages } from "@/lib/i18n";

import { getRequestLocale } from "./request-locale";

/**
 * A page's `generateMetadata`: its document title in the member's language (a screen reader announces
 * it on every navigation), e.g. `export const generateMetadata = localizedTitle((m) => m.nav.courses)`.
 */
export function localizedTitle(pick: (messages: Messages, locale: Locale) => string): () => Promise<Metadata> {
  return async () => {
    const { locale } = await getRequestLocale();
    return { title: pick(getMessages(locale), locale) };
  };
}
