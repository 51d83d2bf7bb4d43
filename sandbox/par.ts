/**
 * The pushed authorization request endpoint (RFC 9126), when the `par` knob is not "off": the client posts
 * its authorization request over the back channel with its credentials (client_secret_post) and gets a
 * one-time `request_uri` to send the browser with.
 */
import type { Context, Hono } from "hono";
import { validateAuthorizationRequest } from "./authorize";
import { checkDpopProof, tokenEndpointProofRefusal } from "./dpop";
import { authenticateClient, NO_STORE_HEADERS, OAuthFailure, oauthError, readForm } from "./http-util";
import type { OAuthErrorCode } from "./http-util";
import type { SandboxState } from "./state";
import { PUSHED_AUTHORIZATION_TTL_SECONDS, randomToken } from "./store";

export const PAR_PATH = "/api/oauth/par";
export const REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

async function handlePushedAuthorizationRequest(c: Context, state: SandboxState): Promise<Response> {
  if (state.knobs.par === "off") return c.json({ error: "not_found", error_description: "No such endpoint" }, 404);
  try {
    const form = await readForm(c);
    const client = authenticateClient(c, state, form);
    // RFC 9126 section 2.1: request_uri is not allowed in a pushed request.
    if (form.has("request_uri")) throw new OAuthFailure("invalid_request", "request_uri must not be pushed");
    const parameters = new URLSearchParams([...form].filter(([name]) => name !== "client_secret"));
    // RFC 9449 section 10.1: a DPoP proof on the push binds the code to its key, like dpop_jkt (which must then agree).
    if (state.knobs.dpop !== "off" && c.req.header("dpop") !== undefined) {
      const proof = await checkDpopProof(c, state);
      if (!proof.ok) return tokenEndpointProofRefusal(c, state, proof);
      const named = parameters.get("dpop_jkt");
      if (named !== null && named !== proof.jkt)
        throw new OAuthFailure("invalid_dpop_proof", "dpop_jkt does not match the DPoP proof's key");
      parameters.set("dpop_jkt", proof.jkt);
    }
    const validated = await validateAuthorizationRequest(state, parameters);
    if (validated.kind === "page") throw new OAuthFailure("invalid_request", validated.message);
    if (validated.kind === "redirect") throw new OAuthFailure(validated.error as OAuthErrorCode, validated.description);
    if (validated.client.clientId !== client.clientId) throw new OAuthFailure("invalid_request", "client_id does not match the client");
    const requestUri = `${REQUEST_URI_PREFIX}${randomToken()}`;
    state.store.pushed.set(requestUri, {
      requestUri,
      clientId: client.clientId,
      parameters: parameters.toString(),
      expiresAt: state.now() + PUSHED_AUTHORIZATION_TTL_SECONDS * 1000,
    });
    // RFC 9126 section 2.2: 201 Created.
    return c.json({ request_uri: requestUri, expires_in: PUSHED_AUTHORIZATION_TTL_SECONDS }, 201, { ...NO_STORE_HEADERS });
  } catch (error) {
    if (error instanceof OAuthFailure) return oauthError(c, state, error.error, error.description);
    throw error;
  }
}

export function registerPushedAuthorizationRoutes(app: Hono, state: SandboxState): void {
  app.post(PAR_PATH, (c) => handlePushedAuthorizationRequest(c, state));
}
