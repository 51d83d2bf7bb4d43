/**
 * Client ID Metadata Documents (docs/architecture.md section 6.2): a client that is not a vendor platform
 * uses the HTTPS URL of a JSON document describing it as its `client_id`. The authorization endpoint fetches the
 * document (allowlisted hosts only, short timeout, small size cap, no redirects), checks it, and keeps the
 * resulting client so that the token, revocation and introspection endpoints know it.
 *
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/
 */
import { z } from "zod";
import { isLoopbackRedirectUri, parseUrl } from "./clients";
import { UNREVIEWED_CLIENT_SCOPES } from "./seed";
import type { SandboxClient } from "./seed";
import type { SandboxState } from "./state";

export const CIMD_FETCH_TIMEOUT_MS = 3_000;
/** The draft's suggested upper bound for a metadata document. */
export const CIMD_MAX_BYTES = 5 * 1024;

export type CimdResult = { ok: true; client: SandboxClient } | { ok: false; message: string };

/** Whether a `client_id` is a metadata document URL (rather than a registered identifier). */
export function isMetadataDocumentClientId(state: SandboxState, clientId: string): boolean {
  if (clientId.startsWith("https://")) return true;
  return state.knobs.cimdAllowHttpLoopback && clientId.startsWith("http://127.0.0.1:");
}

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(100).optional(),
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  client_secret: z.unknown().optional(),
  client_secret_expires_at: z.unknown().optional(),
});

function isIpLiteral(hostname: string): boolean {
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[");
}

/** Checks the URL itself and the host allowlist; returns the URL or why it is refused. */
function checkDocumentUrl(state: SandboxState, clientId: string): URL | string {
  const url = parseUrl(clientId);
  if (!url) return "The client_id is not a valid URL.";
  const httpLoopback = url.protocol === "http:" && url.hostname === "127.0.0.1" && state.knobs.cimdAllowHttpLoopback;
  if (url.protocol !== "https:" && !httpLoopback) return "A client_id URL must use https.";
  if (url.username !== "" || url.password !== "" || url.hash !== "" || clientId.includes("#")) {
    return "A client_id URL must not contain credentials or a fragment.";
  }
  if (url.pathname === "/" || /\/\.\.?(?:\/|$)/.test(clientId)) return "A client_id URL needs a path without dot segments.";
  if (url.href !== clientId) return "A client_id URL must be in normalized form.";
  const allowlisted = state.knobs.cimdAllowedHosts.includes(url.host) || state.knobs.cimdAllowedHosts.includes(url.hostname);
  const open = state.knobs.cimdOpenRegistration && url.protocol === "https:" && !isIpLiteral(url.hostname) && url.hostname !== "localhost";
  if (!allowlisted && !open) return `This site does not accept client metadata documents from ${url.host}.`;
  return url;
}

/** Fetches at most CIMD_MAX_BYTES of JSON, following no redirect; returns the parsed value or why it failed. */
async function fetchDocument(url: URL): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: "manual",
      signal: AbortSignal.timeout(CIMD_FETCH_TIMEOUT_MS),
      headers: { accept: "application/json" },
    });
  } catch {
    return { ok: false, message: "The client metadata document could not be fetched." };
  }
  const fail = async (message: string) => {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false as const, message };
  };
  if (response.status !== 200) return fail(`The client metadata document answered HTTP ${response.status}; redirects are not followed.`);
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") return fail("The client metadata document must be served as application/json.");
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > CIMD_MAX_BYTES) return fail("The client metadata document is too large.");
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > CIMD_MAX_BYTES) {
        await reader.cancel();
        return { ok: false, message: "The client metadata document is too large." };
      }
      chunks.push(value);
    }
    return { ok: true, value: JSON.parse(new TextDecoder().decode(Buffer.concat(chunks))) as unknown };
  } catch {
    return { ok: false, message: "The client metadata document is not valid JSON or could not be read in time." };
  }
}

/** Redirect URIs must be under the document's host (HTTPS) or loopback. */
function redirectUriProblem(documentUrl: URL, uri: string): string | undefined {
  if (isLoopbackRedirectUri(uri)) return undefined;
  const url = parseUrl(uri);
  if (!url) return "a redirect URI in the client metadata document is not a valid URL";
  if (url.hash !== "" || uri.includes("#")) return "a redirect URI in the client metadata document has a fragment";
  if (url.protocol !== "https:" || url.host !== documentUrl.host) {
    return `every redirect URI must be on ${documentUrl.host} (https) or a loopback address`;
  }
  return undefined;
}

/**
 * Resolves a metadata-document `client_id` to a client, fetching the document each time (so that changes
 * to it take effect) and storing the result under the URL.
 */
export async function resolveMetadataDocumentClient(state: SandboxState, clientId: string): Promise<CimdResult> {
  const checked = checkDocumentUrl(state, clientId);
  if (typeof checked === "string") return { ok: false, message: checked };
  const fetched = await fetchDocument(checked);
  if (!fetched.ok) return fetched;
  const parsed = documentSchema.safeParse(fetched.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const problem = issue ? `${issue.path.join(".") || "document"}: ${issue.message}` : "unknown problem";
    return { ok: false, message: `The client metadata document is invalid (${problem}).` };
  }
  const document = parsed.data;
  if (document.client_id !== clientId) {
    return { ok: false, message: "The client metadata document's client_id does not equal its URL." };
  }
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined) {
    return { ok: false, message: "A client metadata document must not contain a client secret." };
  }
  if (document.token_endpoint_auth_method !== undefined && document.token_endpoint_auth_method !== "none") {
    return { ok: false, message: "Clients identified by a metadata document are public: token_endpoint_auth_method must be none." };
  }
  if ((document.grant_types ?? []).some((grant) => grant !== "authorization_code" && grant !== "refresh_token")) {
    return { ok: false, message: "The client metadata document lists an unsupported grant type." };
  }
  if ((document.response_types ?? []).some((type) => type !== "code")) {
    return { ok: false, message: "The client metadata document lists an unsupported response type." };
  }
  for (const uri of document.redirect_uris) {
    const problem = redirectUriProblem(checked, uri);
    if (problem) return { ok: false, message: `The client metadata document is refused: ${problem}.` };
  }
  const previous = state.clients.get(clientId);
  const client: SandboxClient = {
    clientId,
    clientName: document.client_name ?? checked.host,
    authMethod: "none",
    redirectUris: [...new Set(document.redirect_uris)],
    // Every metadata-document client is unreviewed here: read and identity scopes only (section 8).
    allowedScopes: UNREVIEWED_CLIENT_SCOPES,
    audience: "operator",
    kind: "cimd",
    createdAt: previous?.createdAt ?? state.now(),
  };
  state.clients.set(clientId, client);
  return { ok: true, client };
}
