import "@/app/globals.css";

import type { Metadata } from "next";
import type { ReactNode } from "react";

import { AccountMenu } from "@/components/layout/account-menu";
import { AppShell } from "@/components/layout/app-shell";
import { DashboardProviders } from "@/components/layout/dashboard-providers";
import { SiteInfoProvider } from "@/components/layout/site-info";
import { getSiteNameForRender } from "@/lib/auth/site-name";
import { getConfig } from "@/lib/config";
import { renderClock } from "@/lib/i18n/clock";
import { getPageSession } from "@/lib/auth/page-session";
import { isFramedRender } from "@/lib/http/embedding";

import { geistExtended, geistLatin } from "@/app/fonts/geist";
import { documentMetadata, documentViewport } from "@/app/_lib/document-metadata";
import { getRequestLocale } from "@/app/_lib/request-locale";

/** The document's title and description in the member's language. */
export async function generateMetadata(): Promise<Metadata> {
  return documentMetadata((await getRequestLocale()).locale);
}

export const viewport = documentViewport;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale, formatLocale, timeZone }, session, embedded, siteName] = await Promise.all([
    getRequestLocale(),
    getPageSession(),
    isFramedRender(),
    getSiteNameForRender(),
  ]);
  // Read once per request and handed to the browser, so both agree on "now" (to the minute: lib/i18n/clock.ts).
  const now = renderClock();
  return (
    // data-panel: the site's panel, whose header is taller (app/globals.css, the header's clearance).
    <html lang={locale} className={`${geistLatin.variable} ${geistExtended.variable}`} data-panel={embedded ? "" : undefined}>
      <body>
        <DashboardProviders locale={locale} formatLocale={formatLocale} timeZone={timeZone} now={now}>
          <SiteInfoProvider site={{ name: siteName, url: getConfig().siteUrl }}>
            <AppShell
              showNav={session !== null}
              embedded={embedded}
              parentOrigins={getConfig().embedOrigins}
              account={session ? <AccountMenu name={session.claims.name} /> : null}
            >
              {children}
            </AppShell>
          </SiteInfoProvider>
        </DashboardProviders>
      </body>
    </html>
  );
}
