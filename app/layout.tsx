import "./globals.css";

import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";

import { AccountMenu } from "@/components/layout/account-menu";
import { AppShell } from "@/components/layout/app-shell";
import { DashboardProviders } from "@/components/layout/dashboard-providers";
import { SiteInfoProvider } from "@/components/layout/site-info";
import { getSiteName } from "@/lib/auth/site-name";
import { getConfig } from "@/lib/config";
import { getMessages } from "@/lib/i18n";
import { renderClock } from "@/lib/i18n/clock";
import { getPageSession } from "@/lib/auth/page-session";
import { isFramedRender } from "@/lib/http/embedding";

import { geistExtended, geistLatin } from "./fonts/geist";
import { getRequestLocale } from "./_lib/request-locale";

/** The document title and description in the member's language (pages add their own title in front). */
export async function generateMetadata(): Promise<Metadata> {
  const messages = getMessages((await getRequestLocale()).locale);
  return {
    ...metadata,
    title: { default: messages.app.name, template: `%s · ${messages.app.name}` },
    description: messages.pageTitles.description,
  };
}

const metadata: Metadata = {
  referrer: "no-referrer",
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "32x32" },
    ],
  },
  manifest: "/manifest.webmanifest",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale, formatLocale, timeZone }, session, embedded, siteName] = await Promise.all([
    getRequestLocale(),
    getPageSession(),
    isFramedRender(),
    getSiteName(),
  ]);
  // Read once per request and handed to the browser, so both agree on "now" (to the minute: lib/i18n/clock.ts).
  const now = renderClock();
  return (
    <html lang={locale} className={`${geistLatin.variable} ${geistExtended.variable}`}>
      <body>
        <DashboardProviders locale={locale} formatLocale={formatLocale} timeZone={timeZone} now={now}>
          <SiteInfoProvider site={{ name: siteName, url: getConfig().siteUrl }}>
            <AppShell
              showNav={session !== null}
              embedded={embedded}
              parentOrigins={embedded ? getConfig().embedOrigins : []}
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
