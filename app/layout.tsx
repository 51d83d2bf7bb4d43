import "./globals.css";

import { GeistSans } from "geist/font/sans";
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";

import { AccountMenu } from "@/components/layout/account-menu";
import { AppShell } from "@/components/layout/app-shell";
import { DashboardProviders } from "@/components/layout/dashboard-providers";
import { getPageSession } from "@/lib/auth/page-session";
import { getConfig } from "@/lib/config";
import { isFramedRender } from "@/lib/http/embedding";

import { getRequestLocale } from "./_lib/request-locale";

export const metadata: Metadata = {
  title: { default: "Member dashboard", template: "%s · Member dashboard" },
  description: "Your enrolled courses, orders and event registrations in one place.",
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

/** The render's clock, read once per request and handed to the client so both agree on "now". */
function renderTime(): number {
  return Date.now();
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale, timeZone }, session, embedded] = await Promise.all([getRequestLocale(), getPageSession(), isFramedRender()]);
  const now = renderTime();
  return (
    <html lang={locale} className={GeistSans.variable}>
      <body>
        <DashboardProviders locale={locale} timeZone={timeZone} now={now}>
          <AppShell
            showNav={session !== null}
            embedded={embedded}
            parentOrigins={embedded ? getConfig().embedOrigins : []}
            account={session ? <AccountMenu name={session.claims.name} /> : null}
          >
            {children}
          </AppShell>
        </DashboardProviders>
      </body>
    </html>
  );
}
