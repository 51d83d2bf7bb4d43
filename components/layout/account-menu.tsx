"use client";

import { PageLink } from "@/components/ui/page-link";
import { useCallback, useEffect, useId, useRef } from "react";

import { focusOnMount, FrameSignOutConfirmation, useSignOutFlow } from "@/components/settings/sign-out-button";
import { useEmbedding } from "@/components/layout/embedding-context";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { PressedBeforeHydrationNotice } from "@/components/ui/press-before-hydration";
import { Mark } from "@/components/ui/mark";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { useI18n } from "@/lib/i18n/provider";

/** The menu button's look (`account-menu-button` anchors the panel to it, app/globals.css). */
const BUTTON_CLASS =
  "inline-flex min-h-11 max-w-[min(12rem,100%)] items-center gap-2 rounded-lg px-3 font-medium text-fg hover:bg-surface-muted";

/**
 * The header's account menu: a button named with the member's name that opens "Settings" and "Sign out".
 * It is the browser's own popover (`popovertarget`), so it opens and closes before React has hydrated the
 * page (a student's early tap on a slow phone is not lost), and the browser gives it its behaviour: the
 * button is exposed as expanded or not, Escape and a click elsewhere close it, and focus returns to the
 * button. Sign out pressed that early says so and acts once the page is interactive (useSignOutFlow's `early`).
 * Focus moving on past it (Tab from its last item) closes it too, and inside the site's page so
 * does a click on that page outside the frame. Inside the site's page (a frame the site controls), Sign out
 * asks first, and the confirmation cannot be double-clicked through (ASVS 5 V3.4.6; OWASP Clickjacking
 * Defense Cheat Sheet), as in Settings.
 */
export function AccountMenu({ name }: { name: string }) {
  const { messages } = useI18n();
  const t = messages.accountMenu;
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const signOut = useSignOutFlow();
  const { embedded } = useEmbedding();
  // Does nothing when the menu is closed already.
  const close = useCallback(() => panel.current?.hidePopover(), []);

  useEffect(() => {
    if (!embedded) return;
    // Inside the site's page, a click on that page outside the frame reaches no document the popover's
    // light dismiss watches: the frame's window losing focus is its only trace here, and it closes the menu.
    window.addEventListener("blur", close);
    return () => window.removeEventListener("blur", close);
  }, [embedded, close]);

  return (
    <div
      ref={root}
      onBlur={(event) => {
        // Focus moved on past the menu (Tab from its last item): it closes, as a click elsewhere does.
        const next = event.relatedTarget;
        if (next instanceof Node && !root.current?.contains(next)) close();
      }}
    >
      <button type="button" popoverTarget={panelId} className={`account-menu-button ${BUTTON_CLASS}`}>
        <span aria-hidden="true" className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm">
          {name.trim().charAt(0).toUpperCase()}
        </span>
        {/* The panel's header has a third of its width for the menu: the initial alone, the name for screen readers.
            So has a header with room for less than the name's first letters (a phone with text at 175 % or more),
            rather than a sliver of a letter: the button itself takes 5.25rem of its 8.5rem. */}
        <span className={embedded ? "sr-only" : "truncate @max-[8.5rem]:sr-only"}>{name}</span>
        <Mark shape="chevronDown" className="text-fg-muted" />
      </button>
      <div
        ref={panel}
        id={panelId}
        popover="auto"
        // Opened or closed, the menu starts from Sign out again (not from a confirmation left open).
        onToggle={() => signOut.reset()}
        className="account-menu-panel card w-56 flex-col gap-1 p-2 text-fg shadow-card open:flex"
      >
        <PageLink
          href={PAGE_PATHS.settings}
          onClick={close}
          className="inline-flex min-h-11 items-center rounded-lg px-3 text-fg no-underline hover:bg-surface-muted"
        >
          {t.settings}
        </PageLink>
        {signOut.confirming ? (
          <FrameSignOutConfirmation busy={signOut.busy} onConfirm={signOut.confirm} onCancel={signOut.cancel} />
        ) : (
          <button
            ref={signOut.returnFocus ? focusOnMount : undefined}
            type="button"
            disabled={signOut.busy}
            aria-busy={signOut.pending}
            {...signOut.early.button}
            className="inline-flex min-h-11 items-center rounded-lg px-3 text-left text-fg hover:bg-surface-muted"
          >
            {signOut.busy ? t.signingOut : t.signOut}
          </button>
        )}
        <ActionFailedAlert error={signOut.error} message={t.signOutFailed} className="px-3 text-sm" />
      </div>
      {/* Outside the menu's panel: a closed popover's contents are not drawn, even in the top layer. */}
      <PressedBeforeHydrationNotice {...signOut.early.notice}>{signOut.earlyNotice}</PressedBeforeHydrationNotice>
    </div>
  );
}
