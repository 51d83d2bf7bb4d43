import type { Metadata, Viewport } from "next";

import { getMessages } from "@/lib/i18n";
import type { Locale } from "@/lib/i18n/locales";

/**
 * The document's metadata in a language, for both root layouts (pages add their own title in front) and,
 * with `pageTitle`, for a document no layout wraps (app/global-not-found.tsx).
 */
export function documentMetadata(locale: Locale, pageTitle?: string): Metadata {
  const messages = getMessages(locale);
  const titleTemplate = `%s · ${messages.app.name}`;
  return {
    referrer: "no-referrer",
    icons: {
      icon: [
        { url: "/icon.svg", type: "image/svg+xml" },
        { url: "/favicon.ico", sizes: "32x32" },
      ],
    },
    manifest: "/manifest.webmanifest",
    title: pageTitle ? titleTemplate.replace("%s", pageTitle) : { default: messages.app.name, template: titleTemplate },
    description: messages.pageTitles.description,
  };
}

export const documentViewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
};
