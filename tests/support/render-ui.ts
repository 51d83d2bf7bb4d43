import { render, type RenderResult } from "@testing-library/react";
import { createElement, type ReactNode } from "react";

import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";
import type { Locale } from "@/lib/i18n/locales";

/**
 * Renders a component in a DOM (the test file runs under happy-dom: `@vitest-environment happy-dom`) with
 * the dashboard's words in `locale`, for role- and name-based queries as a browser's accessibility tree has them.
 */
export function renderInLocale(node: ReactNode, locale: Locale = "en", options: { timeZone?: string; now?: number } = {}): RenderResult {
  const props = { locale, timeZone: options.timeZone ?? "UTC", now: options.now ?? 0 } as I18nProviderProps;
  return render(createElement(I18nProvider, props, node));
}
