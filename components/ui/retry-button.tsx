"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useI18n } from "@/lib/i18n/provider";
import { FormBeforeHydration } from "./form-before-hydration";

/** What asks again, and whether it is asking now (held, `aria-busy`, meanwhile). */
export interface RetryAction {
  onRetry: () => void;
  retrying?: boolean;
}

/**
 * Retry: a GET form to the page's own address, so a press before the page is interactive (a phone still
 * loading its scripts) loads the page again from the server, which asks the site again; once interactive,
 * the form never leaves the page and `onRetry` asks again in place.
 */
export function RetryButton({ onRetry, retrying = false }: RetryAction) {
  const { messages } = useI18n();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  return (
    <FormBeforeHydration action={pathname ?? "/"} query={searchParams ?? []} onSubmit={onRetry}>
      <button type="submit" className="btn btn-secondary" disabled={retrying} aria-busy={retrying}>
        {messages.errors.retry}
      </button>
    </FormBeforeHydration>
  );
}
