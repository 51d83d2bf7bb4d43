"use client";

import { createContext, use, useEffect, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { useBrowserValue } from "@/lib/client/use-browser-value";
import { getMessages, type Messages } from "./index";
import { MINUTE_MS, renderClock } from "./clock";
import { persistTimeZone } from "./cookies";
import type { FormatLocale } from "./format-locale";
import type { Locale } from "./locales";
import { resolveTimeZone } from "./time-zone";

interface I18nContextValue {
  locale: Locale;
  /**
   * The tag every Intl formatter takes: the language with the browser's English region (en-US or en-GB,
   * negotiated from Accept-Language on the server) or zh-TW. Chosen once by the server, so the browser
   * formats exactly as the HTML did.
   */
  formatLocale: FormatLocale;
  messages: Messages;
  /** The member's IANA time zone (the browser's once hydrated; the server's guess before). */
  timeZone: string;
  /** The current time, updated every minute; the server's render time until hydration completes. */
  now: Date;
}

const I18nContext = createContext<I18nContextValue | null>(null);

function subscribeToMinutes(onChange: () => void): () => void {
  const timer = window.setInterval(onChange, MINUTE_MS);
  return () => window.clearInterval(timer);
}

function browserTimeZone(): string {
  return resolveTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

export interface I18nProviderProps {
  locale: Locale;
  /** The format tag the server rendered with (see `formatLocaleFor`). */
  formatLocale: FormatLocale;
  /** The time zone the server rendered with (the `tz` cookie, else "UTC"). */
  timeZone: string;
  /** The server's render time in epoch milliseconds, so the first client render matches the HTML. */
  now: number;
  children: ReactNode;
}

/**
 * Gives components the language, its messages, the format tag, the member's time zone and a minute-precise clock.
 * Hydration uses the server's values; React then re-renders with the browser's time zone and clock,
 * and the `tz` cookie is written so the next server render already uses the member's zone.
 */
export function I18nProvider({ locale, formatLocale, timeZone: serverTimeZone, now: serverNow, children }: I18nProviderProps) {
  const timeZone = useBrowserValue(browserTimeZone, serverTimeZone);
  const nowMs = useSyncExternalStore(subscribeToMinutes, renderClock, () => serverNow);

  useEffect(() => {
    if (timeZone !== serverTimeZone) persistTimeZone(timeZone);
  }, [timeZone, serverTimeZone]);

  const value = useMemo<I18nContextValue>(
    () => ({ locale, formatLocale, messages: getMessages(locale), timeZone, now: new Date(nowMs) }),
    [locale, formatLocale, timeZone, nowMs],
  );
  return <I18nContext value={value}>{children}</I18nContext>;
}

/** The language, messages, time zone and clock from the nearest {@link I18nProvider}. */
export function useI18n(): I18nContextValue {
  const value = use(I18nContext);
  if (!value) throw new Error("useI18n must be used inside <I18nProvider>");
  return value;
}

/**
 * Words kept apart from the dictionaries (lib/i18n/messages/*.ts: a page's own, shipped with that page
 * alone), in the member's language.
 */
export function useWords<Words>(words: Readonly<Record<Locale, Words>>): Words {
  return words[useI18n().locale];
}
