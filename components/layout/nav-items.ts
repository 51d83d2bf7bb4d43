import type { Messages } from "@/lib/i18n";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The dashboard's pages and their routes, in navigation order. */
export const NAV_ITEMS = [
  { key: "overview", href: PAGE_PATHS.overview },
  { key: "courses", href: PAGE_PATHS.courses },
  { key: "orders", href: PAGE_PATHS.orders },
  { key: "events", href: PAGE_PATHS.events },
  { key: "settings", href: PAGE_PATHS.settings },
] as const satisfies readonly { key: keyof Messages["nav"]; href: string }[];

export type NavKey = (typeof NAV_ITEMS)[number]["key"];

/** The tabs (a bottom bar on phones, the header's row on wider screens); Settings sits at the header's right end. */
export const TAB_ITEMS = NAV_ITEMS.filter((item) => item.key !== "settings");

/**
 * The companion panel's navigation: two sections, each with its pages (the first is where the section
 * opens), beside the account menu (Settings, Sign out) as the third. Learning opens on Continue and
 * Ending soon.
 */
export const PANEL_SECTIONS = [
  {
    key: "learning",
    pages: [
      { key: "continue", href: PAGE_PATHS.overview },
      { key: "courses", href: PAGE_PATHS.courses },
    ],
  },
  {
    key: "ordersAndEvents",
    pages: [
      { key: "orders", href: PAGE_PATHS.orders },
      { key: "events", href: PAGE_PATHS.events },
    ],
  },
] as const satisfies readonly {
  key: keyof Messages["shell"];
  pages: readonly { key: keyof Messages["nav"] | keyof Messages["shell"]; href: string }[];
}[];

/** True when `pathname` is the page itself or one below it ("/" matches only itself). */
export function isActivePath(pathname: string | null, href: string): boolean {
  if (!pathname) return false;
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
