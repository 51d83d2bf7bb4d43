"use client";

import Link from "next/link";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { useI18n } from "@/lib/i18n/provider";
import { LinkPending } from "./link-pending";
import { NavIcon } from "./nav-icons";
import { isActivePath } from "./nav-items";
import { useShownPath } from "./offline-navigation";

const LINK_CLASS =
  "relative inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2.5 text-[0.9375rem] font-medium no-underline " +
  "focus-visible:outline-offset-[-3px]";

const ACTIVE = "bg-accent-soft text-fg";
const IDLE = "text-fg-muted hover:bg-surface-muted hover:text-fg";

/**
 * The header's right end, where the account menu lives (a button named with the member's name, holding
 * Settings and Sign out). Until that menu is here, a Settings link keeps Settings (and its Sign out)
 * one tap away on every width.
 */
export function HeaderAccount() {
  const { messages } = useI18n();
  const active = isActivePath(useShownPath(), PAGE_PATHS.settings);
  return (
    <nav aria-label={messages.shell.account}>
      <Link href={PAGE_PATHS.settings} aria-current={active ? "page" : undefined} className={`${LINK_CLASS} ${active ? ACTIVE : IDLE}`}>
        <NavIcon page="settings" className="size-5" />
        {messages.nav.settings}
        <LinkPending className="inset-x-2.5 bottom-1" />
      </Link>
    </nav>
  );
}
