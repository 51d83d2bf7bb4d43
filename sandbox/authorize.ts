/**
 * The authorization endpoint and its pages: request validation (docs/architecture.md section 6.1), the demo
 * sign-in page, the consent page, the decision, and sign-out of the sandbox's own session.
 *
 * The pending authorization request stays server-side; forms carry only its id and a per-request CSRF token,
 * and the request is bound to the browser that started it (`sandbox_browser` cookie).
 */
import type { Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { isMetadataDocumentClientId, resolveMetadataDocumentClient } from "./cimd";
import { clientLabel, redirectUriAllowed } from "./clients";
import { sitePathOrUndefined } from "./http-util";
import { html, page, signInFields } from "./html";
import type { SafeHtml } from "./html";
import { ALL_SCOPES, DEMO_MEMBERS, DEMO_PASSWORD, findMemberByEmail, findMemberById, MEMBER_ONLY_SCOPES } from "./seed";
import type { DemoMember, SandboxClient } from "./seed";
import { acceptedResources, issuerIdentifier } from "./state";
import type { SandboxState } from "./state";
import { SIGN_IN_WORDS, signInLanguageOf, type SignInWords } from "./sign-in-words";
import { PENDING_AUTHORIZATION_TTL_MS, randomToken, safeEqual } from "./store";
import type { BrowserSession, PendingAuthorization } from "./store";

export const SESSION_COOKIE = "sandbox_session";
export const BROWSER_COOKIE = "sandbox_browser";

/** The consent form's checkbox of each scope, with knob partialConsent: `grant.<scope>=on` when ticked. */
const GRANT_FIELD_PREFIX = "grant.";
const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43,128}$/;
const MAX_OPAQUE_LENGTH = 512;

function describeScope(scope: string, words: SignInWords): string {
  if (Object.hasOwn(words.scopes, scope)) return words.scopes[scope as keyof SignInWords["scopes"]];
  const [resource = scope, access] = scope.split(":");
  return words.siteResource(resource.replace(/_/g, " "), access === "write" ? "write" : "read");
}

type Validation =
  | { kind: "page"; message: string }
  | { kind: "redirect"; client: SandboxClient; redirectUri: string; state: string | undefined; error: string; description: string }
  | {
      kind: "ok";
      client: SandboxClient;
      redirectUri: string;
      state: string | undefined;
      nonce: string | undefined;
      scopes: string[];
      codeChallenge: string;
      resource: string | undefined;
      dpopJkt: string | undefined;
    };

/** @see RFC 6749 section 4.1.2.1, RFC 7636 section 4.4, RFC 8707 section 2 */
export async function validateAuthorizationRequest(state: SandboxState, query: URLSearchParams): Promise<Validation> {
  const single = (name: string): { value: string | undefined; repeated: boolean } => {
    const all = query.getAll(name);
    return { value: all[0], repeated: all.length > 1 };
  };
  const clientId = single("client_id");
  if (clientId.value === undefined || clientId.value === "") return { kind: "page", message: "The request has no client_id." };
  if (clientId.repeated) return { kind: "page", message: "The request names client_id more than once." };
  let client: SandboxClient | undefined;
  if (isMetadataDocumentClientId(state, clientId.value)) {
    // Section 5.3 rule 5: the client_id is the URL of the client's metadata document.
    const resolved = await resolveMetadataDocumentClient(state, clientId.value);
    if (!resolved.ok) return { kind: "page", message: resolved.message };
    client = resolved.client;
  } else {
    client = state.clients.get(clientId.value);
    // A metadata-document client is only ever (re)resolved from its document, never from a stale copy.
    if (client?.kind === "cimd") client = undefined;
  }
  if (!client) return { kind: "page", message: "The application that sent you here is not registered with this site." };

  const redirect = single("redirect_uri");
  if (redirect.value === undefined || redirect.value === "") {
    return { kind: "page", message: "The request has no redirect_uri." };
  }
  if (redirect.repeated) return { kind: "page", message: "The request names redirect_uri more than once." };
  if (!redirectUriAllowed(client, redirect.value)) {
    return { kind: "page", message: "The redirect_uri is not registered for this application." };
  }
  const redirectUri = redirect.value;

  const stateParam = single("state");
  const fail = (error: string, description: string): Validation => ({
    kind: "redirect",
    client,
    redirectUri,
    state: stateParam.value !== undefined && stateParam.value.length <= MAX_OPAQUE_LENGTH ? stateParam.value : undefined,
    error,
    description,
  });

  for (const name of ["response_type", "scope", "code_challenge", "code_challenge_method", "state", "nonce"]) {
    if (single(name).repeated) return fail("invalid_request", `The parameter ${name} was sent more than once`);
  }
  if (stateParam.value !== undefined && stateParam.value.length > MAX_OPAQUE_LENGTH) {
    return fail("invalid_request", `state must be at most ${MAX_OPAQUE_LENGTH} characters`);
  }
  for (const name of ["request", "request_uri"]) {
    // A request_uri of a pushed request was resolved before this validation (RFC 9126 section 4).
    if (query.has(name)) {
      return fail(name === "request" ? "request_not_supported" : "request_uri_not_supported", `${name} is not supported`);
    }
  }

  const responseType = single("response_type").value;
  if (responseType === undefined || responseType === "") return fail("invalid_request", "response_type is required");
  if (responseType !== "code") return fail("unsupported_response_type", "Only response_type=code is supported");

  const method = single("code_challenge_method").value;
  if (method === undefined || method === "") return fail("invalid_request", "code_challenge_method=S256 is required");
  if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  const codeChallenge = single("code_challenge").value;
  if (codeChallenge === undefined || codeChallenge === "") return fail("invalid_request", "code_challenge is required");
  if (!CODE_CHALLENGE_PATTERN.test(codeChallenge)) {
    return fail("invalid_request", "code_challenge must be 43 to 128 base64url characters");
  }

  const scopeParam = single("scope").value;
  if (scopeParam === undefined || scopeParam.trim() === "") return fail("invalid_request", "scope is required");
  const scopes = [...new Set(scopeParam.split(" ").filter((s) => s !== ""))];
  const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
  if (unknown.length > 0) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}`.slice(0, 200));
  const reserved = scopes.filter((s) => MEMBER_ONLY_SCOPES.includes(s));
  if (client.audience !== "member" && reserved.length > 0) {
    // Section 5.4: account:* belongs to the member audience; operator clients (rules 1 to 6) never get it.
    return fail("invalid_scope", `${reserved.join(" ")} is reserved to member clients`);
  }
  const notAllowed = scopes.filter((s) => !client.allowedScopes.includes(s));
  if (notAllowed.length > 0) return fail("invalid_scope", `Scope not allowed for this client: ${notAllowed.join(" ")}`);

  const nonce = single("nonce").value;
  if (nonce !== undefined && (nonce === "" || nonce.length > MAX_OPAQUE_LENGTH)) {
    return fail("invalid_request", `nonce must be 1 to ${MAX_OPAQUE_LENGTH} characters`);
  }

  const resources = query.getAll("resource");
  if (resources.length > 1) return fail("invalid_target", "Only one resource may be requested");
  const resource = resources[0];
  if (resource !== undefined && !acceptedResources(state).includes(resource)) {
    return fail("invalid_target", "resource must be the origin of this site");
  }

  // RFC 9449 section 10: dpop_jkt, a JWK SHA-256 thumbprint, binds the code to the client's DPoP key.
  const dpopJkt = state.knobs.dpop === "off" ? undefined : single("dpop_jkt").value;
  if (dpopJkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(dpopJkt))
    return fail("invalid_request", "dpop_jkt must be a SHA-256 JWK thumbprint");

  return { kind: "ok", client, redirectUri, state: stateParam.value, nonce, scopes, codeChallenge, resource, dpopJkt };
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

export function setPageHeaders(c: Context): void {
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
  );
  c.header("Referrer-Policy", "no-referrer");
}

export function errorPage(c: Context, title: string, message: string, status: 400 | 403 | 404 = 400): Response {
  setPageHeaders(c);
  const rendered = page(
    title,
    html`<h1>${title}</h1>
<p role="alert" class="alert">${message}</p>
<p>Go back to the application and try again. If the problem continues, contact the site's operator.</p>`,
    { status },
  );
  return c.html(rendered.body, status);
}

export function cookieOptions(state: SandboxState) {
  return { httpOnly: true, sameSite: "Lax" as const, path: "/", secure: state.issuer.startsWith("https:") };
}

export function currentSession(c: Context, state: SandboxState): { session: BrowserSession; member: DemoMember } | undefined {
  const id = getCookie(c, SESSION_COOKIE);
  if (id === undefined) return undefined;
  const session = state.store.sessions.get(id);
  if (!session) return undefined;
  const member = findMemberById(session.memberId);
  return member ? { session, member } : undefined;
}

function signInPage(c: Context, state: SandboxState, pending: PendingAuthorization, options: { error?: string; email?: string } = {}) {
  const client = state.clients.get(pending.clientId);
  const words = SIGN_IN_WORDS[pending.language];
  const label = client ? clientLabel(client, words) : undefined;
  const note = label?.note ? (pending.language === "en" ? ` (${label.note})` : `（${label.note}）`) : "";
  const separator = pending.language === "en" ? " " : "";
  setPageHeaders(c);
  const body = html`<h1>${words.signInTitle}</h1>
<p><strong>${label?.name ?? words.anApplication}</strong>${note}${separator}${words.wantsAccess}</p>
${options.error ? html`<p role="alert" class="alert">${options.error}</p>` : ""}
<form method="post" action="/oauth/authorize/sign-in">
<input type="hidden" name="request_id" value="${pending.id}">
<input type="hidden" name="csrf_token" value="${pending.csrfToken}">
${signInFields(options.email, words)}
</form>
<h2>${words.demoAccounts}</h2>
<p>${words.demoPassword(html`<code>${DEMO_PASSWORD}</code>`)}</p>
<table>
<thead><tr><th scope="col">${words.email}</th><th scope="col">${words.who}</th></tr></thead>
<tbody>
${DEMO_MEMBERS.map((member) => html`<tr><td><code>${member.email}</code></td><td>${words.demoMember(member)}</td></tr>`)}
</tbody>
</table>`;
  const rendered = page(words.signIn, body, { lang: pending.language });
  return c.html(rendered.body, 200);
}

function consentPage(
  c: Context,
  state: SandboxState,
  pending: PendingAuthorization,
  signedIn: { session: BrowserSession; member: DemoMember },
) {
  const client = state.clients.get(pending.clientId);
  const words = SIGN_IN_WORDS[pending.language];
  const clientName = client?.clientName ?? words.anApplication;
  const note = client ? clientLabel(client, words).note : undefined;
  setPageHeaders(c);
  const resumePath = `/oauth/authorize/resume?request_id=${encodeURIComponent(pending.id)}`;
  const body = html`<h1>${words.consentTitle(clientName)}</h1>
<p>${words.signedInAs(signedIn.member.name, signedIn.member.email)}</p>
${note ? html`<p class="alert">${words.onlyIfYouStartedIt(clientName, note)}</p>` : ""}
<p>${words.willBeAbleTo(clientName)}</p>
<form method="post" action="/oauth/authorize/decision">
${
  state.knobs.partialConsent
    ? html`<fieldset class="scopes"><legend>${words.untick}</legend>
${pending.scopes.map(
  (scope) =>
    html`<label><input type="checkbox" name="${GRANT_FIELD_PREFIX}${scope}" value="on" checked> ${describeScope(scope, words)}</label><br>`,
)}
</fieldset>`
    : html`<ul class="scopes">
${pending.scopes.map((scope) => html`<li>${describeScope(scope, words)}</li>`)}
</ul>`
}
<p class="muted">${words.revokeAnyTime}</p>
<input type="hidden" name="request_id" value="${pending.id}">
<input type="hidden" name="csrf_token" value="${pending.csrfToken}">
<div class="actions">
<button type="submit" name="decision" value="allow">${words.allow}</button>
<button type="submit" name="decision" value="deny" class="secondary">${words.deny}</button>
</div>
</form>
<form method="post" action="/logout">
<input type="hidden" name="csrf_token" value="${signedIn.session.csrfToken}">
<input type="hidden" name="return_to" value="${resumePath}">
<p class="muted">${words.notYou(signedIn.member.name)} <button type="submit" class="link">${words.signOut}</button></p>
</form>`;
  const rendered = page(words.consentPageTitle, body, { lang: pending.language });
  return c.html(rendered.body, 200);
}

/** Signs the browser in as `member`, replacing any previous session (a new id: no session fixation). */
export function startSession(c: Context, state: SandboxState, member: DemoMember): BrowserSession {
  const session: BrowserSession = { id: randomToken(), memberId: member.id, csrfToken: randomToken(), createdAt: state.now() };
  const previous = getCookie(c, SESSION_COOKIE);
  if (previous !== undefined) state.store.sessions.delete(previous);
  state.store.sessions.set(session.id, session);
  setCookie(c, SESSION_COOKIE, session.id, cookieOptions(state));
  return session;
}

function browserId(c: Context, state: SandboxState): string {
  const existing = getCookie(c, BROWSER_COOKIE);
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const id = randomToken();
  setCookie(c, BROWSER_COOKIE, id, cookieOptions(state));
  return id;
}

type FormResult = { ok: true; form: Map<string, string> } | { ok: false; response: Response };

export async function readPageForm(c: Context): Promise<FormResult> {
  const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") {
    return { ok: false, response: errorPage(c, "Bad request", "This form must be submitted from the sign-in page.") };
  }
  const form = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(await c.req.text())) {
    if (!form.has(key)) form.set(key, value);
  }
  return { ok: true, form };
}

/** Finds the pending request named by the form and checks its CSRF token and browser binding. */
function checkPending(c: Context, state: SandboxState, requestId: string | undefined, csrfToken: string | undefined) {
  const pending = requestId === undefined ? undefined : state.store.pending.get(requestId);
  if (!pending || state.now() - pending.createdAt > PENDING_AUTHORIZATION_TTL_MS) {
    return { ok: false as const, response: errorPage(c, "Sign-in expired", "This sign-in request has expired or was already used.") };
  }
  const browser = getCookie(c, BROWSER_COOKIE);
  if (
    csrfToken === undefined ||
    !safeEqual(csrfToken, pending.csrfToken) ||
    browser === undefined ||
    !safeEqual(browser, pending.browserId)
  ) {
    return {
      ok: false as const,
      response: errorPage(c, "Request refused", "The form could not be verified. Start again from the application.", 403),
    };
  }
  return { ok: true as const, pending };
}

export function registerAuthorizeRoutes(app: Hono, state: SandboxState): void {
  app.get("/oauth/authorize", async (c) => {
    const resolved = resolvePushedRequest(state, new URL(c.req.url).searchParams);
    if (resolved.kind === "page") return errorPage(c, "Cannot continue to sign in", resolved.message);
    const query = resolved.query;
    const validated = await validateAuthorizationRequest(state, query);
    // RFC 9126 section 5: a site that requires PAR refuses authorization requests that were not pushed.
    const result: Validation =
      validated.kind === "ok" && state.knobs.par === "required" && !resolved.pushed
        ? {
            kind: "redirect",
            client: validated.client,
            redirectUri: validated.redirectUri,
            state: validated.state,
            error: "invalid_request",
            description: "This site requires pushed authorization requests (RFC 9126)",
          }
        : validated;
    if (result.kind === "page") return errorPage(c, "Cannot continue to sign in", result.message);
    if (result.kind === "redirect") {
      return c.redirect(
        redirectWith(result.redirectUri, {
          error: result.error,
          error_description: result.description,
          state: result.state,
          iss: issuerIdentifier(state),
        }),
        302,
      );
    }
    const now = state.now();
    state.store.sweep(now);
    const pending: PendingAuthorization = {
      id: randomToken(),
      browserId: browserId(c, state),
      csrfToken: randomToken(),
      clientId: result.client.clientId,
      redirectUri: result.redirectUri,
      scopes: result.scopes,
      state: result.state,
      nonce: result.nonce,
      codeChallenge: result.codeChallenge,
      resource: result.resource,
      dpopJkt: result.dpopJkt,
      // OpenID Connect Core 3.1.2.1: the pages in the first language of `ui_locales` they speak.
      language: state.knobs.localizedSignIn ? signInLanguageOf(query.get("ui_locales")) : "en",
      createdAt: now,
    };
    state.store.pending.set(pending.id, pending);
    const signedIn = currentSession(c, state);
    return signedIn ? consentPage(c, state, pending, signedIn) : signInPage(c, state, pending);
  });

  app.get("/oauth/authorize/resume", (c) => {
    const requestId = c.req.query("request_id");
    const pending = requestId === undefined ? undefined : state.store.pending.get(requestId);
    const browser = getCookie(c, BROWSER_COOKIE);
    if (
      !pending ||
      state.now() - pending.createdAt > PENDING_AUTHORIZATION_TTL_MS ||
      browser === undefined ||
      !safeEqual(browser, pending.browserId)
    ) {
      return errorPage(c, "Sign-in expired", "This sign-in request has expired or was already used.");
    }
    const signedIn = currentSession(c, state);
    return signedIn ? consentPage(c, state, pending, signedIn) : signInPage(c, state, pending);
  });

  app.post("/oauth/authorize/sign-in", async (c) => {
    const read = await readPageForm(c);
    if (!read.ok) return read.response;
    const checked = checkPending(c, state, read.form.get("request_id"), read.form.get("csrf_token"));
    if (!checked.ok) return checked.response;
    const email = (read.form.get("email") ?? "").slice(0, 320);
    const password = read.form.get("password") ?? "";
    const member = findMemberByEmail(email);
    if (!member || !safeEqual(password, member.password)) {
      return signInPage(c, state, checked.pending, { error: SIGN_IN_WORDS[checked.pending.language].wrongPassword, email });
    }
    startSession(c, state, member);
    return c.redirect(`/oauth/authorize/resume?request_id=${encodeURIComponent(checked.pending.id)}`, 303);
  });

  app.post("/oauth/authorize/decision", async (c) => {
    const read = await readPageForm(c);
    if (!read.ok) return read.response;
    const checked = checkPending(c, state, read.form.get("request_id"), read.form.get("csrf_token"));
    if (!checked.ok) return checked.response;
    const pending = checked.pending;
    const signedIn = currentSession(c, state);
    if (!signedIn) return signInPage(c, state, pending, { error: SIGN_IN_WORDS[pending.language].sessionEnded });
    const decision = read.form.get("decision");
    if (decision !== "allow" && decision !== "deny") {
      return errorPage(c, "Bad request", "Choose Allow or Deny.");
    }
    // The pending request is single-use.
    state.store.pending.delete(pending.id);
    if (decision === "deny") {
      return c.redirect(
        redirectWith(pending.redirectUri, {
          error: "access_denied",
          error_description: "The member denied the request",
          state: pending.state,
          iss: issuerIdentifier(state),
        }),
        303,
      );
    }
    // Knob partialConsent: only the ticked scopes are granted (RFC 6749 section 3.3: the site may grant less).
    const scopes = state.knobs.partialConsent
      ? pending.scopes.filter((scope) => read.form.get(`${GRANT_FIELD_PREFIX}${scope}`) === "on")
      : pending.scopes;
    const code = randomToken();
    state.store.codes.set(code, {
      code,
      clientId: pending.clientId,
      memberId: signedIn.member.id,
      redirectUri: pending.redirectUri,
      scopes,
      nonce: pending.nonce,
      codeChallenge: pending.codeChallenge,
      resource: pending.resource,
      dpopJkt: pending.dpopJkt,
      issuedAt: state.now(),
      usedAt: undefined,
      grantId: undefined,
    });
    return c.redirect(redirectWith(pending.redirectUri, { code, state: pending.state, iss: issuerIdentifier(state) }), 303);
  });

  app.post("/logout", async (c) => {
    const read = await readPageForm(c);
    if (!read.ok) return read.response;
    const signedIn = currentSession(c, state);
    const returnTo = read.form.get("return_to");
    const target = sitePathOrUndefined(returnTo, state) ?? "/";
    if (signedIn) {
      const csrf = read.form.get("csrf_token");
      if (csrf === undefined || !safeEqual(csrf, signedIn.session.csrfToken)) {
        return errorPage(c, "Request refused", "The sign-out form could not be verified.", 403);
      }
      state.store.sessions.delete(signedIn.session.id);
    }
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect(target, 303);
  });
}

export const logoutForm = (csrfToken: string): SafeHtml =>
  html`<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="${csrfToken}">\
<button type="submit" class="secondary">Sign out</button></form>`;

/**
 * RFC 9126 section 4: an authorization request naming a `request_uri` is the pushed request it names,
 * for the same client, used once and before it expires; the front channel then carries nothing else.
 */
function resolvePushedRequest(
  state: SandboxState,
  query: URLSearchParams,
): { kind: "page"; message: string } | { kind: "ok"; query: URLSearchParams; pushed: boolean } {
  const requestUri = query.get("request_uri");
  if (requestUri === null || state.knobs.par === "off") return { kind: "ok", query, pushed: false };
  const pushed = state.store.pushed.get(requestUri);
  state.store.pushed.delete(requestUri);
  if (!pushed || pushed.expiresAt <= state.now()) return { kind: "page", message: "This sign-in request has expired or was already used." };
  if (query.get("client_id") !== pushed.clientId) return { kind: "page", message: "The request_uri belongs to another application." };
  return { kind: "ok", query: new URLSearchParams(pushed.parameters), pushed: true };
}
