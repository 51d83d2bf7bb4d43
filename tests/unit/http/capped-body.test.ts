import { describe, expect, it } from "vitest";

import { readCappedText, RequestBodyTooLargeError } from "@/lib/http/capped-body";

function requestWith(contentLength: string | null, body = "{}"): Request {
  const headers = new Headers({ "content-type": "application/json" });
  if (contentLength !== null) headers.set("content-length", contentLength);
  return new Request("http://127.0.0.1/api/sessions/end", { method: "POST", headers, body });
}

describe("a request body read with a byte cap (ASVS 5 V13.1.3)", () => {
  it("reads a body within the cap, declared or not", async () => {
    await expect(readCappedText(requestWith("2"), 16)).resolves.toBe("{}");
    await expect(readCappedText(requestWith(null), 16)).resolves.toBe("{}");
  });

  it.each(["17", "abc", "-1", "1e3", "2, 2"])(
    "refuses a declared Content-Length of %j before reading: over the cap, or not a length",
    async (declared) => {
      await expect(readCappedText(requestWith(declared), 16)).rejects.toBeInstanceOf(RequestBodyTooLargeError);
    },
  );

  it("stops reading an undeclared body at the cap", async () => {
    await expect(readCappedText(requestWith(null, "x".repeat(17)), 16)).rejects.toBeInstanceOf(RequestBodyTooLargeError);
  });
});
