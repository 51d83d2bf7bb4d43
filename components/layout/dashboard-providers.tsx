"use client";

import type { ReactNode } from "react";
import { QueryProvider } from "@/lib/client/query-provider";
import { I18nProvider } from "@/lib/i18n/provider";
import { PendingPageProvider } from "./pending-page";
import type { FormatLocale } from "@/lib/i18n/format-locale";
import type { Locale } from "@/lib/i18n/locales";

/**
 * Everything client components need, for the root layout to wrap the app in: React Query (one client
 * in the browser), the language, time zone and clock, and the page an in-app link is opening.
 */
export function DashboardProviders({
  locale,
  formatLocale,
  timeZone,
  now,
  children,
}: {
  locale: Locale;
  formatLocale: FormatLocale;
  timeZone: string;
  now: number;
  children: ReactNode;
}) {
  return (
    <QueryProvider>
      <I18nProvider locale={locale} formatLocale={formatLocale} timeZone={timeZone} now={now}>
        <PendingPageProvider>{children}</PendingPageProvider>
      </I18nProvider>
    </QueryProvider>
  );
}
