import type { Metadata } from "next";

import { getMessages } from "@/lib/i18n";

import MemberLayout from "@/app/(member)/layout";
import MemberNotFound from "@/app/(member)/not-found";
import { documentMetadata, documentViewport } from "@/app/_lib/document-metadata";
import { getRequestLocale } from "@/app/_lib/request-locale";

/** The document's title and description in the member's language: no layout wraps this page. */
export async function generateMetadata(): Promise<Metadata> {
  const { locale } = await getRequestLocale();
  return documentMetadata(locale, getMessages(locale).pageTitles.notFound);
}

export const viewport = documentViewport;

/**
 * Every path no page or route has (Next.js's `globalNotFound`): the member's 404 in the member's layout, in
 * their language and, when signed in, with the navigation, rendered on the server like any page. With two
 * root layouts (the member's pages, the prerendered signed-out page) Next.js has no app-wide layout to
 * render a not-found.js in; a catch-all page calling `notFound()` instead was sent as an empty shell that
 * only the browser's JavaScript filled in.
 */
export default function UnknownPath() {
  return (
    <MemberLayout>
      <MemberNotFound />
    </MemberLayout>
  );
}
