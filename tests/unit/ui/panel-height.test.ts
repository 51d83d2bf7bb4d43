import { describe, expect, it } from "vitest";

import { PANEL_HEIGHT_MESSAGE, panelHeightMessage, pickParentOrigin } from "@/lib/contract/panel-height";

const SITE = "https://school.example.com";
const SISTER = "https://sister.example.com";

describe("the panel's height message", () => {
  it("is the documented small shape, a whole number of CSS pixels", () => {
    expect(panelHeightMessage(812.2)).toEqual({ type: PANEL_HEIGHT_MESSAGE, height: 813 });
    expect(PANEL_HEIGHT_MESSAGE).toBe("companion-dashboard:height");
  });
});

describe("pickParentOrigin", () => {
  it("sends only to a configured origin, the parent's when the browser says which", () => {
    expect(pickParentOrigin([SITE, SISTER], { ancestorOrigin: SISTER })).toBe(SISTER);
    expect(pickParentOrigin([SITE, SISTER], { referrer: `${SITE}/my-learning` })).toBe(SITE);
  });

  it("never sends to a parent outside EMBED_ORIGINS, nor anywhere when nothing is configured", () => {
    expect(pickParentOrigin([SITE], { ancestorOrigin: "https://evil.example" })).toBeNull();
    expect(pickParentOrigin([SITE, SISTER], { referrer: "https://evil.example/" })).toBeNull();
    expect(pickParentOrigin([], { ancestorOrigin: SITE })).toBeNull();
    // An origin that only begins like a configured one is another site.
    expect(pickParentOrigin([SITE], { ancestorOrigin: `${SITE}.evil.example` })).toBeNull();
  });

  it("without the browser's list of ancestors (not Chromium), a referrer of another site leaves the one configured origin", () => {
    // postMessage delivers nothing to a parent of another origin than the one it is sent to.
    expect(pickParentOrigin([SITE], { referrer: "https://other.example/" })).toBe(SITE);
  });

  it("with one configured origin and no clue (no referrer), uses that origin, never `*`", () => {
    expect(pickParentOrigin([SITE], { referrer: "" })).toBe(SITE);
    expect(pickParentOrigin([SITE, SISTER], {})).toBeNull();
  });
});
