import type { Messages } from "@/lib/i18n";

/** The dashboard's pages and their routes, in navigation order. */
export const NAV_ITEMS = [
  { key: "overview", href: "/" },
  { key: "courses", href: "/courses" },
  { key: "orders", href: "/orders" },
  { key: "events", href: "/events" },
  { key: "settings", href: "/settings" },
] as const satisfies readonly { key: keyof Messages["nav"]; href: string }[];

/** True when `pathname` is the page itself or one below it ("/" matches only itself). */
export function isActivePath(pathname: string | null, href: string): boolean {
  if (!pathname) return false;
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
