import type { Metadata, Viewport } from "next";

import { getMessages } from "@/lib/i18n";
import type { Locale } from "@/lib/i18n/locales";

/**
 * The document's metadata in a language, for both root layouts (pages add their own title in front) and,
 * with `pageTitle`, for a document no layout wraps (app/global-not-found.tsx).
 */
export function documentMetadata(locale: Locale, pageTitle?: string): Metadata {
  const messages = getMessages(locale);
  return {
    referrer: "no-referrer",
    icons: {
      icon: [
        { url: "/icon.svg", type: "image/svg+xml" },
        { url: "/favicon.ico", sizes: "32x32" },
      ],
    },
    manifest: "/manifest.webmanifest",
    title: pageTitle ? documentTitle(locale, pageTitle) : { default: messages.app.name, template: documentTitle(locale, "%s") },
    description: messages.pageTitles.description,
  };
}

/** A page's whole document title: its own, then the app's name ("Courses · Member dashboard"). */
export function documentTitle(locale: Locale, pageTitle: string): string {
  return `${pageTitle} · ${getMessages(locale).app.name}`;
}

export const documentViewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
};
