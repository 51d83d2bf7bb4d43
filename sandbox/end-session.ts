/**
 * The end-session endpoint: OpenID Connect RP-Initiated Logout 1.0. An application that signed a member in
 * sends the browser here to end the member's session at the site too, then gets it back at one of the
 * post-logout redirect URIs registered for it. The `endSession` knob turns it off (no endpoint, nothing
 * in discovery), as on a site that does not implement it.
 */
import type { Context, Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { compactVerify, decodeJwt, decodeProtectedHeader } from "jose";
import { currentSession, errorPage, readPageForm, SESSION_COOKIE, setPageHeaders } from "./authorize";
import { html, page } from "./html";
import { SIGN_IN_WORDS, signInLanguageOf, type SignInLanguage } from "./sign-in-words";
import type { SandboxClient } from "./seed";
import type { SandboxState } from "./state";
import { issuerIdentifier } from "./state";
import { safeEqual } from "./store";

export const END_SESSION_PATH = "/oauth/logout";
const CONFIRM_PATH = `${END_SESSION_PATH}/confirm`;
const MAX_PARAM_LENGTH = 4096;

interface LogoutRequest {
  client: SandboxClient | undefined;
  /** The member the id_token_hint names, when one was sent and verified. */
  hintSubject: string | undefined;
  redirectUri: string | undefined;
  state: string | undefined;
  /** The request's `ui_locales` (section 2), which the pages follow with the localizedSignIn knob. */
  uiLocales: string | undefined;
}

type Validation = { ok: true; request: LogoutRequest } | { ok: false; message: string };

/**
 * The id_token_hint must be an id_token this site issued (its signature and issuer); an expired one is
 * still a good hint (RP-Initiated Logout 1.0 section 2), and so is one signed with a key the site has since
 * rotated away (signing-keys.ts). Its audience names the client.
 */
async function verifyHint(state: SandboxState, hint: string): Promise<{ sub: string; aud: string } | undefined> {
  try {
    const { kid } = decodeProtectedHeader(hint);
    const key = state.signingKeys.issuing.find((candidate) => candidate.kid === kid);
    if (!key) return undefined;
    const { protectedHeader } = await compactVerify(hint, key.publicKey);
    if (protectedHeader.alg !== "ES256") return undefined;
    const claims = decodeJwt(hint);
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (claims.iss !== issuerIdentifier(state) || typeof claims.sub !== "string" || typeof aud !== "string") return undefined;
    return { sub: claims.sub, aud };
  } catch {
    return undefined;
  }
}

/** @see OpenID Connect RP-Initiated Logout 1.0 sections 2 and 3 */
async function validateLogoutRequest(state: SandboxState, params: Map<string, string>): Promise<Validation> {
  for (const value of params.values()) {
    if (value.length > MAX_PARAM_LENGTH) return { ok: false, message: "A parameter of this sign-out request is too long." };
  }
  const hintValue = params.get("id_token_hint");
  const hint = hintValue === undefined ? undefined : await verifyHint(state, hintValue);
  if (hintValue !== undefined && hint === undefined) {
    return { ok: false, message: "The id_token_hint was not issued by this site." };
  }
  const clientId = params.get("client_id") ?? hint?.aud;
  if (hint && clientId !== hint.aud) return { ok: false, message: "The client_id does not match the id_token_hint's audience." };
  const client = clientId === undefined ? undefined : state.clients.get(clientId);
  if (clientId !== undefined && client === undefined) return { ok: false, message: "This application is not known to the site." };
  const redirectUri = params.get("post_logout_redirect_uri");
  if (redirectUri !== undefined) {
    // Section 3: the URI must be registered for the client, compared exactly; without a client it cannot be checked.
    if (!client) return { ok: false, message: "A post_logout_redirect_uri needs a client_id or an id_token_hint." };
    if (!(client.postLogoutRedirectUris ?? []).includes(redirectUri)) {
      return { ok: false, message: "The post_logout_redirect_uri is not registered for this application." };
    }
  }
  return {
    ok: true,
    request: { client, hintSubject: hint?.sub, redirectUri, state: params.get("state"), uiLocales: params.get("ui_locales") },
  };
}

function afterLogout(c: Context, state: SandboxState, request: LogoutRequest): Response {
  if (request.redirectUri !== undefined) {
    const target = new URL(request.redirectUri);
    if (request.state !== undefined) target.searchParams.set("state", request.state);
    return c.redirect(target.toString(), 303);
  }
  setPageHeaders(c);
  const language = pageLanguage(state, request);
  const words = SIGN_IN_WORDS[language];
  const rendered = page(words.signedOutTitle, html`<h1>${words.signedOutHeading}</h1><p><a href="/">${words.goToSite}</a></p>`, {
    lang: language,
  });
  return c.html(rendered.body, 200);
}

/** The language of the sign-out pages: the first of `ui_locales` they speak, with the localizedSignIn knob. */
function pageLanguage(state: SandboxState, request: LogoutRequest): SignInLanguage {
  return state.knobs.localizedSignIn ? signInLanguageOf(request.uiLocales) : "en";
}

function confirmPage(c: Context, state: SandboxState, request: LogoutRequest, csrfToken: string, memberName: string): Response {
  setPageHeaders(c);
  const language = pageLanguage(state, request);
  const words = SIGN_IN_WORDS[language];
  const hidden = (name: string, value: string | undefined) =>
    value === undefined ? html`` : html`<input type="hidden" name="${name}" value="${value}">`;
  const rendered = page(
    words.signOutQuestion,
    html`<h1>${words.signOutQuestion}</h1>
<p>${words.signOutAsks(request.client?.clientName ?? words.anApplication, memberName)}</p>
<form method="post" action="${CONFIRM_PATH}"><input type="hidden" name="csrf_token" value="${csrfToken}">\
${hidden("client_id", request.client?.clientId)}${hidden("post_logout_redirect_uri", request.redirectUri)}${hidden("state", request.state)}\
${hidden("ui_locales", request.uiLocales)}\
<button type="submit" name="decision" value="sign_out">${words.signOutOfSite}</button> \
<button type="submit" name="decision" value="stay" class="secondary">${words.staySignedIn}</button></form>`,
    { lang: language },
  );
  return c.html(rendered.body, 200);
}

async function handleLogoutRequest(c: Context, state: SandboxState, params: Map<string, string>): Promise<Response> {
  if (!state.knobs.endSession) return c.notFound();
  const validation = await validateLogoutRequest(state, params);
  if (!validation.ok) return errorPage(c, "Sign-out request refused", validation.message);
  const { request } = validation;
  const signedIn = currentSession(c, state);
  if (!signedIn) return afterLogout(c, state, request);
  // Section 2: the site must ask the member unless the hint names the member signed in here.
  if (request.hintSubject !== signedIn.member.id) return confirmPage(c, state, request, signedIn.session.csrfToken, signedIn.member.name);
  state.store.sessions.delete(signedIn.session.id);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return afterLogout(c, state, request);
}

export function registerEndSessionRoutes(app: Hono, state: SandboxState): void {
  app.get(END_SESSION_PATH, (c) => handleLogoutRequest(c, state, new Map(new URL(c.req.url).searchParams)));
  app.post(END_SESSION_PATH, async (c) => {
    const read = await readPageForm(c);
    return read.ok ? handleLogoutRequest(c, state, read.form) : read.response;
  });
  app.post(CONFIRM_PATH, async (c) => {
    if (!state.knobs.endSession) return c.notFound();
    const read = await readPageForm(c);
    if (!read.ok) return read.response;
    const form = read.form;
    const validation = await validateLogoutRequest(
      state,
      new Map([...form].filter(([key]) => ["client_id", "post_logout_redirect_uri", "state", "ui_locales"].includes(key))),
    );
    if (!validation.ok) return errorPage(c, "Sign-out request refused", validation.message);
    const signedIn = currentSession(c, state);
    if (signedIn) {
      const csrf = form.get("csrf_token");
      if (csrf === undefined || !safeEqual(csrf, signedIn.session.csrfToken)) {
        return errorPage(c, "Request refused", "The sign-out form could not be verified.", 403);
      }
      if (form.get("decision") === "sign_out") {
        state.store.sessions.delete(signedIn.session.id);
        deleteCookie(c, SESSION_COOKIE, { path: "/" });
      }
    }
    return afterLogout(c, state, validation.request);
  });
}
