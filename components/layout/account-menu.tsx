"use client";

import { PageLink } from "@/components/ui/page-link";
import { useEffect, useId, useRef, useState } from "react";

import { focusOnMount, FrameSignOutConfirmation, useSignOutFlow } from "@/components/settings/sign-out-button";
import { useEmbedding } from "@/components/layout/embedding-context";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { useI18n } from "@/lib/i18n/provider";

/**
 * The header's account menu: a button named with the member's name that opens "Settings" and "Sign out"
 * (a disclosure: Escape closes it and focus returns to the button; a click elsewhere, or focus moving on
 * past it, closes it too). Inside the site's page (a frame the site controls), Sign out asks first, and the
 * confirmation cannot be double-clicked through (ASVS 5 V3.4.6; OWASP Clickjacking Defense Cheat Sheet), as
 * in Settings.
 */
export function AccountMenu({ name }: { name: string }) {
  const { messages } = useI18n();
  const t = messages.accountMenu;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const signOut = useSignOutFlow();
  const { embedded } = useEmbedding();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div
      ref={root}
      className="relative"
      onBlur={(event) => {
        // Focus moved on past the menu (Tab from its last item): it closes, as a click elsewhere does.
        const next = event.relatedTarget;
        if (next instanceof Node && !root.current?.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen((value) => !value);
          signOut.reset();
        }}
        className="inline-flex min-h-11 max-w-48 items-center gap-2 rounded-lg px-3 font-medium text-fg hover:bg-surface-muted"
      >
        <span aria-hidden="true" className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm">
          {name.trim().charAt(0).toUpperCase()}
        </span>
        {/* The panel's header has a third of its width for the menu: the initial alone, the name for screen readers. */}
        <span className={embedded ? "sr-only" : "truncate"}>{name}</span>
        <span aria-hidden="true" className="text-fg-muted">
          ▾
        </span>
      </button>
      <div id={panelId} hidden={!open} className="card absolute right-0 top-full z-50 mt-1 flex w-56 flex-col gap-1 p-2 shadow-card">
        <PageLink
          href={PAGE_PATHS.settings}
          onClick={() => setOpen(false)}
          className="inline-flex min-h-11 items-center rounded-lg px-3 text-fg no-underline hover:bg-surface-muted"
        >
          {t.settings}
        </PageLink>
        {signOut.confirming && open ? (
          <FrameSignOutConfirmation busy={signOut.busy} onConfirm={signOut.confirm} onCancel={signOut.cancel} />
        ) : (
          <button
            ref={signOut.returnFocus ? focusOnMount : undefined}
            type="button"
            disabled={signOut.busy}
            aria-busy={signOut.pending}
            onClick={signOut.start}
            className="inline-flex min-h-11 items-center rounded-lg px-3 text-left text-fg hover:bg-surface-muted"
          >
            {signOut.busy ? t.signingOut : t.signOut}
          </button>
        )}
        <ActionFailedAlert error={signOut.error} message={t.signOutFailed} className="px-3 text-sm" />
      </div>
    </div>
  );
}
