/**
 * Redirect URI rules shared by registration, Client ID Metadata Documents, the admin area and the authorization
 * endpoint.
 */
import type { SandboxClient } from "./seed";
import type { SignInWords } from "./sign-in-words";

/** The loopback IP literals accepted in redirect URIs (RFC 8252 section 7.3). `localhost` is not one of them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);

export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * `http://127.0.0.1:<port>/<path>` or `http://[::1]:<port>/<path>`: a loopback redirect URI of a native app.
 * `localhost` is refused, as RFC 8252 section 8.3 advises (a name can resolve elsewhere; the literal cannot).
 * @see RFC 8252 section 7.3
 */
export function isLoopbackRedirectUri(value: string): boolean {
  const url = parseUrl(value);
  return (
    url !== undefined &&
    url.protocol === "http:" &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.username === "" &&
    url.password === "" &&
    url.hash === "" &&
    !value.includes("#")
  );
}

/** Everything but the port: loopback redirect URIs match on any port (RFC 8252 section 7.3). */
function withoutPort(url: URL): string {
  const copy = new URL(url.toString());
  copy.port = "";
  return copy.toString();
}

/**
 * Whether `requested` is registered for the client. Exact string match, except that clients registered through
 * loopback registration or a metadata document may use any port on a registered loopback URI.
 * @see RFC 6749 section 3.1.2.3, RFC 8252 section 7.3
 */
export function redirectUriAllowed(client: SandboxClient, requested: string): boolean {
  if (client.redirectUris.includes(requested)) return true;
  if (client.kind !== "loopback" && client.kind !== "cimd") return false;
  if (!isLoopbackRedirectUri(requested)) return false;
  const wanted = parseUrl(requested);
  if (!wanted) return false;
  return client.redirectUris.some((registered) => {
    const url = isLoopbackRedirectUri(registered) ? parseUrl(registered) : undefined;
    return url !== undefined && withoutPort(url) === withoutPort(wanted);
  });
}

/** A one-line label for consent pages: self-asserted names are marked as such. */
export function clientLabel(client: SandboxClient, words: SignInWords): { name: string; note: string | undefined } {
  switch (client.kind) {
    case "loopback":
      return { name: client.clientName, note: words.loopbackNote };
    case "cimd":
      return {
        name: client.clientName,
        note: words.metadataDocumentNote(parseUrl(client.clientId)?.host ?? "?"),
      };
    case "admin":
    case "seeded":
    case "vendor":
      return { name: client.clientName, note: undefined };
  }
}
