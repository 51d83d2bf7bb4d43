// @vitest-environment happy-dom
/**
 * A page hydrates without rendering a second time for the clock: the server renders with renderClock()
 * (the start of the minute) and the browser's clock reads the same within that minute, so React has no
 * different snapshot to render again while hydrating (issue 26: the second pass was blocking time on a phone).
 */
import { act, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { renderClock } from "@/lib/i18n/clock";
import { DEFAULT_ENGLISH_FORMAT, formatLocaleFor } from "@/lib/i18n/format-locale";
import { resolveTimeZone } from "@/lib/i18n/time-zone";
import { I18nProvider, useI18n, type I18nProviderProps } from "@/lib/i18n/provider";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  vi.useFakeTimers({ toFake: ["Date"] });
  // Half a minute into a minute, as most page views are.
  vi.setSystemTime(new Date("2026-11-24T12:00:30.250Z"));
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = "";
});

/** How many times a component reading the clock renders while a page rendered with `serverNow` hydrates. */
async function rendersWhileHydrating(serverNow: number): Promise<number> {
  let renders = 0;
  function ReadsTheClock() {
    renders += 1;
    return createElement("p", null, useI18n().now.toISOString());
  }
  const props = {
    locale: "en",
    formatLocale: formatLocaleFor("en", DEFAULT_ENGLISH_FORMAT),
    // The browser's own zone, as the `tz` cookie tells the server after a first visit.
    timeZone: resolveTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone),
    now: serverNow,
  } as I18nProviderProps;
  const page = createElement(I18nProvider, props, createElement(ReadsTheClock));
  const container = document.createElement("div");
  container.innerHTML = renderToString(page);
  document.body.append(container);
  renders = 0;
  await act(async () => {
    hydrateRoot(container, page);
    // Let React finish hydrating, and render again if a store's snapshot differs from the server's.
    await Promise.resolve();
  });
  return renders;
}

describe("the render clock", () => {
  it("is the start of the current minute", () => {
    expect(new Date(renderClock()).toISOString()).toBe("2026-11-24T12:00:00.000Z");
  });

  it("lets a page hydrate in one render", async () => {
    expect(await rendersWhileHydrating(renderClock())).toBe(1);
  });

  it("(the probe sees a second render when the server's clock is not the browser's)", async () => {
    expect(await rendersWhileHydrating(Date.now())).toBe(2);
  });
});
