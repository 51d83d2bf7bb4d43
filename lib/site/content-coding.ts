import "server-only";

import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The content codings of the site's answers read whole (RFC 9110 section 8.4): the ones asked for in
 * Accept-Encoding, as fetch asks for them, and decoded here. An answer is decoded to at most the cap of its
 * kind, however few bytes it took on the wire: a small compressed answer must not open into a large one
 * (OWASP ASVS 5 V5.2.3, a compressed input's size checked after uncompressing).
 */
export const ACCEPTED_CODINGS = "gzip, deflate, br";

type Decoder = (content: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer<ArrayBuffer>>;

const gunzip: Decoder = promisify(zlib.gunzip);
const inflate: Decoder = promisify(zlib.inflate);
const inflateRaw: Decoder = promisify(zlib.inflateRaw);
const brotliDecompress: Decoder = promisify(zlib.brotliDecompress);

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzip,
  "x-gzip": gunzip,
  // "deflate" is the zlib format (RFC 9110 section 8.4.1.2); some servers send the raw deflate stream,
  // told apart by the zlib header's compression method, 8 (RFC 1950 section 2.2).
  deflate: (content, options) => ((content[0]! & 0x0f) === 0x08 ? inflate : inflateRaw)(content, options),
  br: brotliDecompress,
};

/** The codings named by a Content-Encoding header, in the order they were applied, without `identity`. */
export function contentCodingsOf(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
}

/**
 * The content with its codings undone, last applied first, each step opening to at most `maxBytes`; undefined
 * for a coding the dashboard did not ask for, whose content is then left as it came (its reader cannot read it).
 */
export async function decodeContent(
  content: Buffer<ArrayBuffer>,
  codings: readonly string[],
  maxBytes: number,
): Promise<Buffer<ArrayBuffer> | undefined> {
  if (!codings.every((coding) => coding in DECODERS)) return undefined;
  let decoded = content;
  for (const coding of [...codings].reverse()) decoded = await DECODERS[coding]!(decoded, { maxOutputLength: maxBytes });
  return decoded;
}

/** Whether decoding stopped because the content opened to more than its cap. */
export function isOverCap(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_BUFFER_TOO_LARGE";
}
