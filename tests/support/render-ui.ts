import { render, type RenderResult } from "@testing-library/react";
import { createElement, type ReactNode } from "react";

import { DEFAULT_ENGLISH_FORMAT, formatLocaleFor, type EnglishFormat } from "@/lib/i18n/format-locale";
import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";
import type { Locale } from "@/lib/i18n/locales";

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
  return render(createElement(I18nProvider, props, node));
}
