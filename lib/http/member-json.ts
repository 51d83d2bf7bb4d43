import { promisify } from "node:util";
import { gzip } from "node:zlib";

import Negotiator from "negotiator";
import { NextResponse } from "next/server";

const gzipAsync = promisify(gzip);

/**
 * Up to this many bytes, an answer travels in the first flight of a new connection's initial TCP
 * window (RFC 6928: ten segments, about 14 KiB): compressing it saves the member no round trip and
 * costs CPU on both ends.
 */
export const UNCOMPRESSED_ANSWER_MAX_BYTES = 14 * 1024;

/**
 * A member's data as JSON, never stored by a cache (it is personal). A small answer goes as it is, with
 * `Cache-Control: no-transform` so that no compression on the way (Next.js's, a proxy's) spends CPU on
 * it. A larger one, such as a long Courses list, is gzipped here when the browser accepts it (RFC 9110
 * section 12.5.3), whichever way the request came in: through Next.js (whose own compression leaves an
 * encoded answer alone) or through the front door (lib/http/front-door.ts). next.config.mjs leaves
 * Cache-Control of the account routes to them: a header set there would win over this one.
 */
export async function memberJson(data: unknown, requestHeaders: Headers): Promise<NextResponse> {
  const body = Buffer.from(JSON.stringify(data));
  if (body.byteLength <= UNCOMPRESSED_ANSWER_MAX_BYTES) {
    return new NextResponse(body, { headers: { "content-type": "application/json", "cache-control": "no-store, no-transform" } });
  }
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store", vary: "accept-encoding" };
  const acceptEncoding = requestHeaders.get("accept-encoding") ?? "";
  if (new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(["identity", "gzip"]) !== "gzip") {
    return new NextResponse(body, { headers });
  }
  return new NextResponse(await gzipAsync(body), { headers: { ...headers, "content-encoding": "gzip" } });
}
