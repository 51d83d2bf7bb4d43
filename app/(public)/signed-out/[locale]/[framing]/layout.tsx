import "@/app/globals.css";

import type { Metadata } from "next";
import type { ReactNode } from "react";

import { DashboardProviders } from "@/components/layout/dashboard-providers";
import { SignedOutShell } from "@/components/layout/signed-out-shell";
import { FRAMINGS } from "@/lib/contract/signed-out-copies";
import { LOCALES, isLocale } from "@/lib/i18n/locales";
import { DEFAULT_TIME_ZONE } from "@/lib/i18n/time-zone";
import { DEFAULT_ENGLISH_FORMAT, formatLocaleFor } from "@/lib/i18n/format-locale";
import { renderClock } from "@/lib/i18n/clock";

import { geistExtended, geistLatin } from "@/app/fonts/geist";
import { documentMetadata, documentViewport } from "@/app/_lib/document-metadata";

/**
 * The root layout of the signed-out page's prerendered copies (lib/contract/signed-out-copies.ts): one
 * per language and framing, built once, so nothing in it reads the request. The member's pages have their
 * own root layout (app/(member)/layout.tsx), which reads the session, the language and the framing per
 * request; moving between the two is a full page load, as it always is from or to the sign-in.
 */
export const dynamicParams = false;

export function generateStaticParams(): { locale: string; framing: string }[] {
  return LOCALES.flatMap((locale) => FRAMINGS.map((framing) => ({ locale, framing })));
}

type Params = Promise<{ locale: string; framing: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { locale } = await params;
  return documentMetadata(isLocale(locale) ? locale : "en");
}

export const viewport = documentViewport;

export default async function SignedOutRootLayout({ children, params }: { children: ReactNode; params: Params }) {
  const { locale: localeParam, framing } = await params;
  const locale = isLocale(localeParam) ? localeParam : "en";
  // The page formats no date or time: the default English format and zone, and the build's minute, until
  // the browser's own take over (I18nProvider).
  const formatLocale = formatLocaleFor(locale, DEFAULT_ENGLISH_FORMAT);
  return (
    <html lang={locale} className={`${geistLatin.variable} ${geistExtended.variable}`}>
      <body>
        <DashboardProviders locale={locale} formatLocale={formatLocale} timeZone={DEFAULT_TIME_ZONE} now={renderClock()}>
          <SignedOutShell embedded={framing === "framed"}>{children}</SignedOutShell>
        </DashboardProviders>
      </body>
    </html>
  );
}
