"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useI18n } from "@/lib/i18n/provider";
import { isActivePath, NAV_ITEMS } from "./nav-items";

/** The primary navigation: a scrollable row of tabs on phones, inline in the header on wider screens. */
export function MainNav() {
  const pathname = usePathname();
  const { messages } = useI18n();
  return (
    <nav aria-label={messages.app.mainNavigation} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1">
        {NAV_ITEMS.map((item) => {
          const active = isActivePath(pathname, item.href);
          return (
            <li key={item.key}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`inline-flex min-h-11 items-center rounded-lg px-3 text-[0.9375rem] font-medium no-underline transition-colors ${
                  active
                    ? "bg-accent-soft text-fg underline decoration-2 decoration-accent underline-offset-8"
                    : "text-fg-muted hover:bg-surface-muted hover:text-fg"
                }`}
              >
                {messages.nav[item.key]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
