import { promisify } from "node:util";
import zlib from "node:zlib";

import type { ContentCoding } from "./knobs";

const ENCODERS: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gzip),
  br: promisify(zlib.brotliCompress),
};

/**
 * Whether a request's Accept-Encoding lets the answer be in `coding`: when it names the coding or `*` with a
 * quality above 0, and when there is no Accept-Encoding at all (RFC 9110 section 12.5.3: then any coding is
 * acceptable), as a web server or CDN in front of a site reads it.
 */
export function acceptsCoding(acceptEncoding: string | undefined, coding: ContentCoding): boolean {
  if (acceptEncoding === undefined) return true;
  let wildcard = false;
  for (const entry of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith("q="));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (name === coding) return accepted;
    if (name === "*") wildcard = accepted;
  }
  return wildcard;
}

/**
 * The answer in `coding` (the `contentCoding` knob), read whole and compressed, with Content-Encoding and
 * `Vary: Accept-Encoding`. An event stream, or an answer without a body, is left as it is: a server compresses
 * what it sends whole.
 */
export async function encodeAnswer(response: Response, coding: ContentCoding): Promise<Response> {
  if (response.body === null || (response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response;
  const encoded = await ENCODERS[coding](Buffer.from(await response.arrayBuffer()));
  const headers = new Headers(response.headers);
  headers.set("content-encoding", coding);
  headers.set("content-length", String(encoded.byteLength));
  headers.append("vary", "Accept-Encoding");
  return new Response(new Uint8Array(encoded), { status: response.status, statusText: response.statusText, headers });
}
