import "server-only";

import { base64url } from "jose";

/**
 * True when the compact JWS's header or payload JSON repeats a member name in one object.
 *
 * RFC 7519 section 4 (claim names) and RFC 7515 section 4 (header parameter names): names MUST be
 * unique, and a parser either rejects duplicates or keeps the lexically last one. JSON.parse (and so
 * jose and oauth4webapi) silently keeps the last, while another reader of the same token (the site, a
 * log pipeline) may keep the first (RFC 8259 section 4: the behaviour is then unpredictable). We take
 * the stricter choice and reject (OpenID Connect conformance, OWASP ASVS 5 V9).
 *
 * Anything that is not three segments of base64url, UTF-8 JSON answers false: jose refuses it as
 * malformed (it decodes both segments with the same base64url and a strict UTF-8 decoder, RFC 8725
 * section 3.7), so the text walked here is exactly the text jose parses.
 */
export function repeatsAJwtMemberName(compact: string): boolean {
  const segments = compact.split(".");
  if (segments.length !== 3) return false;
  return segments.slice(0, 2).some((segment) => {
    let json: string;
    try {
      json = new TextDecoder("utf-8", { fatal: true }).decode(base64url.decode(segment));
      JSON.parse(json);
    } catch {
      return false;
    }
    return repeatsAMemberName(json);
  });
}

/**
 * Walks a valid JSON text's strings and brackets (a string token is whole, so brackets and colons inside
 * it are never seen): the string before each `:` is a member name of the innermost open object, compared
 * decoded, so `"s\u0075b"` repeats `"sub"`.
 */
function repeatsAMemberName(json: string): boolean {
  const open: (Set<string> | null)[] = []; // a set of names per open object, null per open array
  let lastString = "";
  for (const [token] of json.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\]:]/g)) {
    if (token === "{") open.push(new Set());
    else if (token === "[") open.push(null);
    else if (token === "}" || token === "]") open.pop();
    else if (token === ":") {
      const names = open.at(-1);
      const name = JSON.parse(lastString) as string;
      if (names?.has(name)) return true;
      names?.add(name);
    } else lastString = token;
  }
  return false;
}
