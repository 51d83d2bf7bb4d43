/**
 * Every member page's document title names the page, then the app (a screen reader announces it on each
 * navigation, and a phone's tab list shows it). The layout's title template does that for the pages below
 * it; Overview sits at the layout's own path, where Next.js does not apply the template.
 */
import { describe, expect, it, vi } from "vitest";

import { generateMetadata as overviewMetadata } from "@/app/(member)/page";
import { documentMetadata } from "@/app/_lib/document-metadata";
import { getMessages } from "@/lib/i18n";

import { requestHeaders } from "../support/request-headers";

vi.mock("next/headers", () => import("../support/request-headers"));

describe("Overview's document title", () => {
  it.each(["en", "zh-TW"] as const)("in %s, names the page and then the app, as the layout's template does below it", async (locale) => {
    requestHeaders.current = new Headers({ "accept-language": locale });
    const messages = getMessages(locale);
    const { title } = await overviewMetadata();
    expect(title).toBe(`${messages.overview.title} · ${messages.app.name}`);
    const template = documentMetadata(locale).title as { template: string };
    expect(template.template.replace("%s", messages.overview.title)).toBe(title);
  });
});
