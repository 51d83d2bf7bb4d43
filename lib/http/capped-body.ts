import "server-only";

/**
 * Request bodies are read with a byte cap (OWASP ASVS 5 V13.1.3, resource limits): a declared
 * Content-Length over the cap is refused before anything is read, and a body without one (chunked)
 * is read only up to the cap. Every route that reads a body goes through readCappedText.
 */
export class RequestBodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${maxBytes} bytes.`);
    this.name = "RequestBodyTooLargeError";
  }
}

export async function readCappedText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > maxBytes)) {
    await request.body?.cancel().catch(() => undefined);
    throw new RequestBodyTooLargeError(maxBytes);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RequestBodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
