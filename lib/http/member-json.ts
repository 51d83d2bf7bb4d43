import { NextResponse } from "next/server";

/**
 * Up to this many bytes, an answer travels in the first flight of a new connection's initial TCP
 * window (RFC 6928: ten segments, about 14 KiB): compressing it saves the member no round trip and
 * costs CPU on both ends.
 */
export const UNCOMPRESSED_ANSWER_MAX_BYTES = 14 * 1024;

/**
 * A member's data as JSON, never stored by a cache (it is personal). A small answer also carries
 * `Cache-Control: no-transform`, which tells Next.js's compression (and any proxy on the way) to send
 * it as it is; a larger one, such as a long Courses list, is compressed as usual. (next.config.mjs
 * leaves Cache-Control of the account routes to them: a header set there would win over this one.)
 */
export function memberJson(data: unknown): NextResponse {
  const body = JSON.stringify(data);
  const small = Buffer.byteLength(body) <= UNCOMPRESSED_ANSWER_MAX_BYTES;
  return new NextResponse(body, {
    headers: { "content-type": "application/json", "cache-control": small ? "no-store, no-transform" : "no-store" },
  });
}
