import { render, type RenderResult } from "@testing-library/react";
import { createElement, type ReactNode } from "react";

import { DEFAULT_ENGLISH_FORMAT, formatLocaleFor, type EnglishFormat } from "@/lib/i18n/format-locale";
import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";
import type { Locale } from "@/lib/i18n/locales";

/**
 * happy-dom has no popover behaviour (no showPopover, nothing ever `:popover-open`) and no user-agent rule
 * that hides a closed popover. A manual popover is opened only by the browser's own invoker or by script (the
 * notice of a press before hydration, components/ui/press-before-hydration.tsx), so it is hidden here as a
 * browser hides it while closed. The account menu's auto popover is left drawn: the tests press its entries.
 */
function hideClosedManualPopovers(): void {
  if (document.getElementById("closed-manual-popovers")) return;
  const style = document.createElement("style");
  style.id = "closed-manual-popovers";
  style.textContent = '[popover="manual"]:not(:popover-open) { display: none; }';
  document.head.append(style);
}

/**
 * Renders a component in a DOM (the test file runs under happy-dom: `@vitest-environment happy-dom`) with
 * the dashboard's words in `locale`, for role- and name-based queries as a browser's accessibility tree has them.
 * English dates and numbers follow `englishFormat` (the region the server would negotiate; en-GB by default).
 */
export function renderInLocale(
  node: ReactNode,
  locale: Locale = "en",
  options: { timeZone?: string; now?: number; englishFormat?: EnglishFormat } = {},
): RenderResult {
  const props = {
    locale,
    formatLocale: formatLocaleFor(locale, options.englishFormat ?? DEFAULT_ENGLISH_FORMAT),
    timeZone: options.timeZone ?? "UTC",
    now: options.now ?? 0,
  } as I18nProviderProps;
  hideClosedManualPopovers();
  return render(createElement(I18nProvider, props, node));
}
