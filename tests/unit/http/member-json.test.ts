import { describe, expect, it } from "vitest";

import { memberJson, UNCOMPRESSED_ANSWER_MAX_BYTES } from "@/lib/http/member-json";

describe("memberJson", () => {
  it("sends a small answer as it is: personal (no-store) and left uncompressed (no-transform)", async () => {
    const data = { items: [{ name: "Ünïcode course" }], nextCursor: null };
    const response = memberJson(data);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await response.json()).toEqual(data);
  });

  it("lets a large answer be compressed, still never stored", async () => {
    const data = { items: Array.from({ length: 400 }, (_, index) => ({ name: `Course ${index}`, slug: `course-${index}` })) };
    expect(JSON.stringify(data).length).toBeGreaterThan(UNCOMPRESSED_ANSWER_MAX_BYTES);
    const response = memberJson(data);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual(data);
  });

  it("measures the answer in bytes, not characters", () => {
    // Three bytes per character in UTF-8: under the limit in characters, over it in bytes.
    const text = "€".repeat(Math.ceil(UNCOMPRESSED_ANSWER_MAX_BYTES / 3) + 10);
    expect(text.length).toBeLessThan(UNCOMPRESSED_ANSWER_MAX_BYTES);
    expect(memberJson({ text }).headers.get("cache-control")).toBe("no-store");
  });
});
