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
  });

  it("with one configured origin and no clue (no referrer), uses that origin, never `*`", () => {
    expect(pickParentOrigin([SITE], { referrer: "" })).toBe(SITE);
    expect(pickParentOrigin([SITE, SISTER], {})).toBeNull();
  });
});
