"use client";

import { PageLink } from "@/components/ui/page-link";
import { useI18n } from "@/lib/i18n/provider";
import { LinkPending } from "./link-pending";
import { NavIcon } from "./nav-icons";
import { isActivePath, PANEL_SECTIONS, TAB_ITEMS } from "./nav-items";
import { useShownPath } from "./offline-navigation";

/** Focus rings drawn inside the link, so that no edge of the screen or the bar can clip them. */
const INSET_FOCUS = "focus-visible:outline-offset-[-3px]";

const TAB_BAR_CLASS =
  "fixed inset-x-0 bottom-0 z-40 border-t border-line bg-surface pb-[env(safe-area-inset-bottom)] " +
  "sm:static sm:border-0 sm:bg-transparent sm:pb-0";
/** `tab-name`: the name under the icon grows with larger text only up to where it fits (app/globals.css). */
const TAB_CLASS =
  `tab-name relative flex min-h-14 flex-col items-center justify-center gap-0.5 px-0.5 text-xs font-medium no-underline ${INSET_FOCUS} ` +
  "sm:min-h-11 sm:flex-row sm:rounded-lg sm:px-3 sm:text-[0.9375rem]";
/** A section's name may take two lines in a narrow panel: balanced, so no word ends alone ("訂單與" / "活動", not "訂單與活" / "動"). */
const SECTION_CLASS = [
  "relative flex min-h-11 items-center justify-center rounded-lg px-1 text-center text-sm font-medium leading-tight text-balance",
  "no-underline",
  INSET_FOCUS,
].join(" ");

/**
 * The tabs: a bar fixed to the bottom of the screen on phones (icon over name, four equal cells that fit
 * 320 px), a row in the header from 640 px on. The page shown is marked current; a tab shows at once that
 * its page is on the way.
 */
export function MainNav() {
  const pathname = useShownPath();
  const { messages } = useI18n();
  return (
    <nav aria-label={messages.app.mainNavigation} className={TAB_BAR_CLASS}>
      <ul className="grid grid-cols-4 sm:flex sm:gap-1">
        {TAB_ITEMS.map((item) => {
          const active = isActivePath(pathname, item.href);
          return (
            <li key={item.key} className="min-w-0">
              <PageLink
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`${TAB_CLASS} ${
                  active
                    ? "text-accent sm:bg-accent-soft sm:text-fg sm:underline sm:decoration-2 sm:decoration-accent sm:underline-offset-8"
                    : "text-fg-muted hover:bg-surface-muted hover:text-fg"
                }`}
              >
                {active ? <span aria-hidden="true" className="absolute inset-x-3 top-0 h-0.5 rounded-b bg-accent sm:hidden" /> : null}
                <NavIcon page={item.key} className="size-6 sm:hidden" />
                <span className="max-w-full truncate sm:overflow-visible">{messages.nav[item.key]}</span>
                <LinkPending className="inset-x-3 bottom-1" />
              </PageLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The companion panel's navigation: its sections in one row (the account menu beside them), and the pages
 * of the section shown under it. The panel is narrow on every screen, so it is always this, at its top.
 */
export function PanelNav() {
  const pathname = useShownPath();
  const { messages } = useI18n();
  // None on a page of the account menu (Settings).
  const current = PANEL_SECTIONS.find((section) => section.pages.some((page) => isActivePath(pathname, page.href)));
  const label = (key: string) =>
    key in messages.shell ? messages.shell[key as keyof typeof messages.shell] : messages.nav[key as keyof typeof messages.nav];
  return (
    <nav aria-label={messages.app.mainNavigation} className="panel-navigation col-span-2 min-w-0">
      <ul className="grid grid-cols-2 gap-1">
        {PANEL_SECTIONS.map((section) => {
          const active = section === current;
          const opens = section.pages[0].href;
          return (
            <li key={section.key} className="min-w-0">
              <PageLink
                href={opens}
                aria-current={active ? (isActivePath(pathname, opens) ? "page" : "true") : undefined}
                className={`${SECTION_CLASS} ${active ? "bg-accent-soft text-fg" : "text-fg-muted hover:bg-surface-muted hover:text-fg"}`}
              >
                {label(section.key)}
                <LinkPending className="inset-x-3 bottom-1" />
              </PageLink>
            </li>
          );
        })}
      </ul>
      {current && current.pages.length > 1 ? (
        // The row's whole width, under the account menu too (the nav has two of the three columns and their gap,
        // or all of them once stacked); even so, with larger text the pages wrap rather than pass the panel's edge.
        <ul className="panel-pages mt-1 flex w-[calc(150%+0.125rem)] flex-wrap gap-1">
          {current.pages.map((page) => {
            const active = isActivePath(pathname, page.href);
            return (
              <li key={page.key}>
                <PageLink
                  href={page.href}
                  aria-current={active ? "page" : undefined}
                  className={`relative inline-flex min-h-11 items-center rounded-lg px-3 text-sm no-underline ${INSET_FOCUS} ${
                    active
                      ? "font-semibold text-fg underline decoration-2 decoration-accent underline-offset-8"
                      : "text-fg-muted hover:text-fg"
                  }`}
                >
                  {label(page.key)}
                  <LinkPending className="inset-x-3 bottom-1" />
                </PageLink>
              </li>
            );
          })}
        </ul>
      ) : null}
    </nav>
  );
}
