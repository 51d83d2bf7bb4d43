import { gunzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { memberJson, UNCOMPRESSED_ANSWER_MAX_BYTES } from "@/lib/http/member-json";

const acceptsGzip = new Headers({ "accept-encoding": "gzip, deflate, br, zstd" });
const largeData = { items: Array.from({ length: 400 }, (_, index) => ({ name: `Course ${index}`, slug: `course-${index}` })) };

describe("memberJson", () => {
  it("sends a small answer as it is, even to a browser that takes gzip: personal (no-store), uncompressed (no-transform)", async () => {
    const data = { items: [{ name: "Ünïcode course" }], nextCursor: null };
    const response = await memberJson(data, acceptsGzip);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual(data);
  });

  it("gzips a large answer for a browser that accepts it, still never stored, and says it varies by Accept-Encoding", async () => {
    expect(JSON.stringify(largeData).length).toBeGreaterThan(UNCOMPRESSED_ANSWER_MAX_BYTES);
    const response = await memberJson(largeData, acceptsGzip);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("accept-encoding");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.byteLength).toBeLessThan(JSON.stringify(largeData).length / 4);
    expect(JSON.parse(gunzipSync(body).toString("utf8"))).toEqual(largeData);
  });

  it.each([
    ["no Accept-Encoding", new Headers()],
    ["gzip refused (q=0)", new Headers({ "accept-encoding": "gzip;q=0, identity" })],
    ["only other encodings", new Headers({ "accept-encoding": "br" })],
  ])("sends a large answer uncompressed when the browser does not take gzip: %s", async (_case, headers) => {
    const response = await memberJson(largeData, headers);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBe("accept-encoding");
    expect(await response.json()).toEqual(largeData);
  });

  it("measures the answer in bytes, not characters", async () => {
    // Three bytes per character in UTF-8: under the limit in characters, over it in bytes.
    const text = "€".repeat(Math.ceil(UNCOMPRESSED_ANSWER_MAX_BYTES / 3) + 10);
    expect(text.length).toBeLessThan(UNCOMPRESSED_ANSWER_MAX_BYTES);
    const response = await memberJson({ text }, acceptsGzip);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});
