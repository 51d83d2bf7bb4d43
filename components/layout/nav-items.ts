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

/** True when `pathname` is the page itself or one below it ("/" matches only itself). */
export function isActivePath(pathname: string | null, href: string): boolean {
  if (!pathname) return false;
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
