"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useI18n } from "@/lib/i18n/provider";
import { MainNav } from "./main-nav";
import { OfflineBanner } from "./offline-banner";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The skip link: hidden until it has keyboard focus, then shown over the page's top left corner. */
const SKIP_LINK_CLASS =
  "sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 " +
  "focus:rounded-lg focus:bg-surface focus:px-4 focus:py-3 focus:text-fg focus:shadow-card";

/**
 * The page frame: a skip link, a header with the app's name and (when signed in) the navigation, and
 * the main landmark the pages render into.
 */
export function AppShell({
  children,
  showNav = true,
  embedded = false,
  account = null,
}: {
  children: ReactNode;
  showNav?: boolean;
  embedded?: boolean;
  /** The account menu (components/layout/account-menu.tsx), when signed in. */
  account?: ReactNode;
}) {
  const { messages } = useI18n();
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className={SKIP_LINK_CLASS}>
        {messages.app.skipToContent}
      </a>
      <header className="sticky top-0 z-40 border-b border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/80">
        <div className="mx-auto flex max-w-5xl flex-col gap-1 px-4 pt-2 sm:flex-row sm:items-center sm:justify-between sm:gap-6 sm:py-2">
          {/* Inside the site's page the site's own header is already there: no second brand header. */}
          {embedded ? null : (
            <Link
              href={PAGE_PATHS.overview}
              className="inline-flex min-h-11 items-center gap-2 self-start font-semibold text-fg no-underline sm:self-auto"
            >
              <span aria-hidden="true" className="inline-block size-6 rounded-md bg-accent" />
              {messages.app.name}
            </Link>
          )}
          {showNav ? <MainNav /> : null}
          {account ? <div className={embedded ? "self-end" : "absolute right-4 top-2 sm:static"}>{account}</div> : null}
        </div>
        <OfflineBanner />
      </header>
      <main id="main" tabIndex={-1} className={`mx-auto w-full max-w-5xl flex-1 px-4 outline-none ${embedded ? "py-4" : "py-6 sm:py-10"}`}>
        {children}
      </main>
    </div>
  );
}
