"use client";

import { PageLink } from "@/components/ui/page-link";
import { usePathname } from "next/navigation";
import { useRef, useState, type ReactNode } from "react";
import { useI18n } from "@/lib/i18n/provider";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { AppIcon } from "./app-icon";
import { EmbeddingProvider } from "./embedding-context";
import { MainNav, PanelNav } from "./main-nav";
import { OfflineBanner } from "./offline-banner";
import { OfflineNavigation, OfflineOutlet } from "./offline-navigation";
import { PendingOutlet } from "./pending-page";
import { useReportFrameHeight } from "./use-report-frame-height";

/** The skip link: hidden until it has keyboard focus, then shown over the page's top left corner. */
const SKIP_LINK_CLASS =
  "sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 " +
  "focus:rounded-lg focus:bg-surface focus:px-4 focus:py-3 focus:text-fg focus:shadow-card";

/** The page's side margins, which do not grow with larger text (app/globals.css). */
const PAGE_GUTTER = "page-gutter";
const HEADER_ROW = "flex min-h-14 items-center gap-4";
const HEADER_ROW_IN_PANEL = "grid grid-cols-3 items-start gap-1 py-2";
/** All the row's width left (the account menu at its right end): the width the menu's name is shown by. */
const ACCOUNT_IN_HEADER = "@container flex-1 justify-end min-w-0 [&>div]:min-w-0";
/** `panel-account`: on a line of its own in a narrow panel (app/globals.css, "The panel's header row"). */
const ACCOUNT_IN_PANEL = "panel-account justify-end [&>div]:min-w-0 [&_button]:max-w-full";
/** One empty list for every render, so the frame-height effect does not start again on each one. */
const NO_ORIGINS: readonly string[] = [];

/**
 * The page frame: a skip link, one opaque header (the app's name, the tabs, the account's place at its
 * right end), the main landmark the pages render into, and on phones the tabs as a bar at the bottom.
 * Embedded in the site's page (the companion panel) there is no brand, the panel's three sections sit at
 * the top, the panel reports its height to the site, and a footer opens the dashboard in a new tab.
 */
export function AppShell({
  children,
  showNav = true,
  embedded: embeddedAtLoad = false,
  parentOrigins = NO_ORIGINS,
  account = null,
}: {
  children: ReactNode;
  showNav?: boolean;
  embedded?: boolean;
  /** The site's origins the panel may report its height to (EMBED_ORIGINS), used only when embedded. */
  parentOrigins?: readonly string[];
  /** The account menu (components/layout/account-menu.tsx), when signed in: at the header's right end. */
  account?: ReactNode;
}) {
  const { messages } = useI18n();
  const content = useRef<HTMLDivElement>(null);
  // Decided by the document's own request (Sec-Fetch-Dest: iframe) and kept: a refresh (the language switch)
  // renders the layout again from an RSC request, which never says it is for a frame.
  const [embedded] = useState(embeddedAtLoad);
  useReportFrameHeight(content, embedded ? parentOrigins : NO_ORIGINS);
  const hasHeader = showNav || !embedded;
  return (
    <EmbeddingProvider value={{ embedded, parentOrigins }}>
      <OfflineNavigation preloadViews={showNav}>
        <div ref={content} className={`flex flex-col ${embedded ? "" : "min-h-dvh"}`}>
          <a href="#main" className={SKIP_LINK_CLASS}>
            {messages.app.skipToContent}
          </a>
          {/* No header at all when it would be empty (the panel signed out): no empty landmark. */}
          {hasHeader ? (
            <header className={`sticky top-0 z-40 border-b border-line bg-surface ${embedded ? "@container" : ""}`}>
              <div className={`mx-auto max-w-5xl ${PAGE_GUTTER} ${embedded ? HEADER_ROW_IN_PANEL : HEADER_ROW}`}>
                {embedded ? null : (
                  <PageLink
                    href={PAGE_PATHS.overview}
                    className="inline-flex min-h-11 shrink-0 items-center gap-2 font-semibold text-fg no-underline"
                  >
                    {/* The app's icon: alone below 400 px, it must read as the app. */}
                    <AppIcon className="size-6 shrink-0" />
                    {/* Signed in, the account menu needs the room below 400 px, and the tabs from 640 px (where they
                        move up into the header) to 768 px: the name stays the link's name. Signed out, there is no menu,
                        and the name says which app this is. */}
                    <span className={account ? "sr-only min-[400px]:not-sr-only sm:sr-only md:not-sr-only" : undefined}>
                      {messages.app.name}
                    </span>
                  </PageLink>
                )}
                {showNav ? embedded ? <PanelNav /> : <MainNav /> : null}
                {account ? (
                  <nav
                    aria-label={messages.shell.account}
                    className={`flex min-w-0 items-center ${embedded ? ACCOUNT_IN_PANEL : ACCOUNT_IN_HEADER}`}
                  >
                    {account}
                  </nav>
                ) : null}
              </div>
              <OfflineBanner />
            </header>
          ) : (
            <OfflineBanner />
          )}
          <main
            id="main"
            tabIndex={-1}
            className={`mx-auto w-full max-w-5xl flex-1 ${PAGE_GUTTER} outline-none ${
              embedded ? "py-4" : showNav ? "pb-24 pt-6 sm:py-10" : "py-6 sm:py-10"
            }`}
          >
            <PendingOutlet>
              <OfflineOutlet>{children}</OfflineOutlet>
            </PendingOutlet>
          </main>
          {embedded && showNav ? <PanelFooter /> : null}
        </div>
      </OfflineNavigation>
    </EmbeddingProvider>
  );
}

/** The panel's way out: the same page of the dashboard in a tab of its own (for Safari, blocked popups, more room). */
function PanelFooter() {
  const { messages } = useI18n();
  const pathname = usePathname();
  return (
    <footer className={`border-t border-line py-3 ${PAGE_GUTTER}`}>
      <a href={pathname} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center text-accent underline">
        {messages.embedded.openInNewTab}
      </a>
    </footer>
  );
}
