"use client";

import { useBrowserValue } from "@/lib/client/use-browser-value";
import { DEFAULT_LOCALE, LOCALE_COOKIE, negotiateLocale, type Locale } from "@/lib/i18n/locales";
import { CRASH_WORDS } from "@/lib/i18n/messages/crash";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The member's language without the app's providers: the `locale` cookie, else the browser's languages. */
function browserLocale(): Locale {
  const cookie = document.cookie
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === LOCALE_COOKIE)?.[1];
  return negotiateLocale(navigator.languages.join(","), cookie ? decodeURIComponent(cookie) : null);
}

/**
 * What the member sees when the dashboard itself failed to render (the root layout included): the
 * dashboard's look, our own words in their language, Try again, and a way back. Never a stack trace.
 */
export function CrashPage({ onRetry }: { onRetry: () => void }) {
  const locale = useBrowserValue(browserLocale, DEFAULT_LOCALE);
  // Not the dictionaries (lib/i18n/messages/crash.ts): this page's scripts load on every route.
  const words = CRASH_WORDS[locale];
  return (
    <main id="main" lang={locale} className="mx-auto flex min-h-dvh w-full max-w-xl flex-col justify-center px-4 py-10">
      <div role="alert" className="card flex flex-col items-start gap-4 p-6 sm:p-8">
        <p className="inline-flex items-center gap-2 font-semibold text-fg">
          <span aria-hidden="true" className="inline-block size-6 rounded-md bg-accent" />
          {words.appName}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{words.title}</h1>
        <p className="text-fg-muted">{words.body}</p>
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            {words.retry}
          </button>
          {/* A full page load: the app's router may be what failed. */}
          <a className="btn btn-secondary" href={PAGE_PATHS.overview}>
            {words.home}
          </a>
        </div>
      </div>
    </main>
  );
}
