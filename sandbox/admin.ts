/**
 * The operator's admin area of the sandbox site (docs/architecture.md section 6.2): an owner or admin
 * signs in with the sandbox's own sign-in, turns on the "MCP connections" beta, and then finds Developers,
 * OAuth applications, where member clients are created (the secret is shown once and only its hash is kept),
 * listed and deleted (which revokes every token issued to them).
 *
 * Every form carries the session's CSRF token; state-changing requests from another Origin are refused.
 */
import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { cookieOptions, currentSession, readPageForm, setPageHeaders, startSession } from "./authorize";
import { parseUrl } from "./clients";
import { html, page, signInFields } from "./html";
import { SIGN_IN_WORDS } from "./sign-in-words";
import { sitePathOrUndefined } from "./http-util";
import type { SafeHtml } from "./html";
import { MCP_PATH, MCP_SERVER_NAME } from "./mcp";
import { DEMO_MEMBERS, DEMO_PASSWORD, findMemberByEmail, hashClientSecret, MEMBER_CLIENT_SCOPES, SCHOOL } from "./seed";
import type { DemoMember, SandboxClient } from "./seed";
import { deleteClient } from "./state";
import type { SandboxState } from "./state";
import { randomToken, safeEqual } from "./store";
import type { BrowserSession } from "./store";

export const ADMIN_PATH = "/admin";
export const DEVELOPERS_PATH = "/admin/developers";
export const OAUTH_APPLICATIONS_PATH = "/admin/developers/oauth-applications";
export const SIGN_IN_PATH = "/sign-in";
const SIGN_IN_CSRF_COOKIE = "sandbox_sign_in_csrf";

/** Member clients an operator may keep at once. */
export const MAX_MEMBER_CLIENTS = 50;
const MAX_REDIRECT_URIS = 10;

const SCOPE_LABELS: Record<string, string> = {
  openid: "openid: confirm who the member is",
  profile: "profile: the member's name",
  email: "email: the member's email address",
  "account:read": "account:read: the member's enrollments, orders and event registrations",
  "account:write": "account:write: change the member's account, such as course progress",
};

export interface MemberClientInput {
  name: string;
  redirectUris: readonly string[];
  scopes: readonly string[];
  /** `confidential` (client_secret_post, a secret is issued) or `public` (PKCE only); anything else is refused. */
  type: string;
}

export type CreateMemberClientResult =
  { ok: true; client: SandboxClient; clientSecret: string | undefined } | { ok: false; problems: string[] };

function isOperator(member: DemoMember): boolean {
  return member.roles.includes("owner") || member.roles.includes("admin");
}

/** HTTPS, or http on a loopback host (local development, e.g. the dashboard at http://localhost:3000). */
function redirectUriProblem(uri: string): string | undefined {
  const url = parseUrl(uri);
  if (!url) return `“${uri}” is not an absolute URL.`;
  if (url.hash !== "" || uri.includes("#")) return `“${uri}” must not contain a fragment (#).`;
  if (url.username !== "" || url.password !== "") return `“${uri}” must not contain a user name or password.`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)) return undefined;
  return `“${uri}” must use https (or http on 127.0.0.1, [::1] or localhost for local development).`;
}

/**
 * Creates a member client as the admin area does: validated input, a random client_id, and for confidential
 * clients a random secret returned once (only its SHA-256 is stored).
 */
export function createMemberClient(state: SandboxState, input: MemberClientInput): CreateMemberClientResult {
  const problems: string[] = [];
  const name = input.name.trim();
  if (name === "") problems.push("Enter a name for the application.");
  if (name.length > 100) problems.push("The name must be at most 100 characters.");
  const redirectUris = [...new Set(input.redirectUris.map((uri) => uri.trim()).filter((uri) => uri !== ""))];
  if (redirectUris.length === 0) problems.push("Enter at least one redirect URI.");
  if (redirectUris.length > MAX_REDIRECT_URIS) problems.push(`Enter at most ${MAX_REDIRECT_URIS} redirect URIs.`);
  for (const uri of redirectUris.slice(0, MAX_REDIRECT_URIS)) {
    const problem = uri.length > 2000 ? "A redirect URI is too long." : redirectUriProblem(uri);
    if (problem) problems.push(problem);
  }
  const scopes = [...new Set(input.scopes)];
  if (scopes.length === 0) problems.push("Choose at least one scope.");
  if (scopes.some((scope) => !MEMBER_CLIENT_SCOPES.includes(scope))) problems.push("Choose scopes from the list only.");
  if (input.type !== "confidential" && input.type !== "public") problems.push("Choose confidential or public.");
  const existing = [...state.clients.values()].filter((client) => client.kind === "admin").length;
  if (existing >= MAX_MEMBER_CLIENTS) problems.push(`You already have ${MAX_MEMBER_CLIENTS} applications. Delete one first.`);
  if (problems.length > 0) return { ok: false, problems };

  const clientSecret = input.type === "confidential" ? `sks_${randomToken(32)}` : undefined;
  const client: SandboxClient = {
    clientId: `app_${randomBytes(12).toString("hex")}`,
    clientName: name,
    authMethod: clientSecret === undefined ? "none" : "client_secret_post",
    ...(clientSecret === undefined ? {} : { clientSecretHash: hashClientSecret(clientSecret) }),
    redirectUris,
    allowedScopes: MEMBER_CLIENT_SCOPES.filter((scope) => scopes.includes(scope)),
    audience: "member",
    kind: "admin",
    createdAt: state.now(),
  };
  state.clients.set(client.clientId, client);
  return { ok: true, client, clientSecret };
}

export function listMemberClients(state: SandboxState): SandboxClient[] {
  return [...state.clients.values()].filter((client) => client.kind === "admin").sort((a, b) => a.createdAt - b.createdAt);
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

function adminNav(state: SandboxState, current: string): SafeHtml {
  const links: [string, string][] = [[ADMIN_PATH, "Admin home"]];
  if (state.settings.mcpConnectionsBeta) {
    links.push([DEVELOPERS_PATH, "Developers"], [OAUTH_APPLICATIONS_PATH, "OAuth applications"]);
  }
  return html`<nav aria-label="Admin"><ul class="nav">${links.map(
    ([href, label]) => html`<li><a href="${href}"${current === href ? html` aria-current="page"` : ""}>${label}</a></li>`,
  )}</ul></nav>`;
}

function signedInAs(session: BrowserSession, member: DemoMember): SafeHtml {
  return html`<form method="post" action="/logout" class="whoami">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
<input type="hidden" name="return_to" value="${ADMIN_PATH}">
<p class="muted">Signed in as ${member.name} (${member.email}). <button type="submit" class="link">Sign out</button></p>
</form>`;
}

function takeFlash(session: BrowserSession): SafeHtml | string {
  const flash = session.flash;
  if (flash === undefined) return "";
  delete session.flash;
  return html`<p role="status" class="notice">${flash}</p>`;
}

function render(c: Context, title: string, body: SafeHtml, status: 200 | 400 | 403 | 404 = 200): Response {
  setPageHeaders(c);
  // Browsers then send our Origin with the admin forms (with no-referrer they send "Origin: null"), which
  // readAdminForm checks; links to other sites still carry no referrer.
  c.header("Referrer-Policy", "same-origin");
  return c.html(page(title, body, { status }).body, status);
}

function signInPage(
  c: Context,
  state: SandboxState,
  returnTo: string,
  options: { error?: string; email?: string; status?: 200 | 400 } = {},
): Response {
  const csrf = randomToken();
  setCookie(c, SIGN_IN_CSRF_COOKIE, csrf, { ...cookieOptions(state), path: SIGN_IN_PATH, maxAge: 30 * 60 });
  const body = html`<h1>Sign in to ${SCHOOL.name}</h1>
<p>Sign in to continue to the admin area.</p>
${options.error ? html`<p role="alert" class="alert">${options.error}</p>` : ""}
<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="csrf_token" value="${csrf}">
<input type="hidden" name="return_to" value="${returnTo}">
${signInFields(options.email, SIGN_IN_WORDS.en)}
</form>
<h2>Demo accounts</h2>
<p>Every demo account uses the password <code>${DEMO_PASSWORD}</code>. Only the site operator can open the admin area.</p>
<ul>${DEMO_MEMBERS.map((member) => html`<li><code>${member.email}</code>: ${member.name}, ${member.description.toLowerCase()}</li>`)}</ul>`;
  return render(c, "Sign in", body, options.status ?? 200);
}

function safeReturnTo(value: string | undefined, state: SandboxState): string {
  return sitePathOrUndefined(value, state) ?? ADMIN_PATH;
}

type Guard = { ok: true; session: BrowserSession; member: DemoMember } | { ok: false; response: Response };

/** Signed in (else to the sign-in page) as an owner or admin (else a 403 page). */
function requireOperator(c: Context, state: SandboxState, returnTo: string): Guard {
  const signedIn = currentSession(c, state);
  if (!signedIn) return { ok: false, response: c.redirect(`${SIGN_IN_PATH}?return_to=${encodeURIComponent(returnTo)}`, 303) };
  if (!isOperator(signedIn.member)) {
    const body = html`<h1>Admins only</h1>
<p role="alert" class="alert">You are signed in as ${signedIn.member.name} (${signedIn.member.email}), a student at ${SCHOOL.name}. \
Only the site's owner or administrators can open the admin area.</p>
<p>To manage the site, sign out and sign in with an owner or administrator account.</p>
${signedInAs(signedIn.session, signedIn.member)}`;
    return { ok: false, response: render(c, "Admins only", body, 403) };
  }
  return { ok: true, session: signedIn.session, member: signedIn.member };
}

/** Reads a form posted from an admin page: right content type, same Origin, the session's CSRF token. */
async function readAdminForm(
  c: Context,
  state: SandboxState,
  session: BrowserSession,
): Promise<{ ok: true; form: URLSearchParams } | { ok: false; response: Response }> {
  const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  const refused = (message: string) => ({
    ok: false as const,
    response: render(
      c,
      "Request refused",
      html`<h1>Request refused</h1><p role="alert" class="alert">${message}</p><p><a href="${ADMIN_PATH}">Back to Admin</a></p>`,
      403,
    ),
  });
  if (contentType !== "application/x-www-form-urlencoded") return refused("This form must be submitted from the admin pages.");
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== state.issuer) return refused("This form was submitted from another site.");
  const form = new URLSearchParams(await c.req.text());
  const csrf = form.get("csrf_token");
  if (csrf === null || !safeEqual(csrf, session.csrfToken))
    return refused("The form could not be verified. Reload the page and try again.");
  return { ok: true, form };
}

function betaOffPage(c: Context, state: SandboxState): Response {
  const body = html`${adminNav(state, "")}
<h1>Developers is not turned on</h1>
<p>The Developers pages, including OAuth applications, appear after you turn on the <strong>MCP connections</strong> beta.</p>
<p><a href="${ADMIN_PATH}">Go to Admin to turn on the beta</a></p>`;
  return render(c, "Not found", body, 404);
}

function adminHome(c: Context, state: SandboxState, session: BrowserSession, member: DemoMember): Response {
  const on = state.settings.mcpConnectionsBeta;
  const body = html`${adminNav(state, ADMIN_PATH)}
<h1>${SCHOOL.name} admin</h1>
${signedInAs(session, member)}
${takeFlash(session)}
<section aria-labelledby="beta-heading">
<h2 id="beta-heading">Beta features</h2>
<form method="post" action="${ADMIN_PATH}/beta">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
<div class="check">
<input type="checkbox" id="mcp-connections" name="mcp_connections" value="on" \
aria-describedby="mcp-connections-help"${on ? html` checked` : ""}>
<label for="mcp-connections">MCP connections</label>
</div>
<p id="mcp-connections-help" class="muted">Lets AI assistants and member apps connect to ${SCHOOL.name}: \
adds Developers and OAuth applications, where you create the clients members authorize.</p>
<button type="submit">Save beta settings</button>
</form>
<p>MCP connections is <strong>${on ? "on" : "off"}</strong>.</p>
</section>
${on ? html`<p><a href="${DEVELOPERS_PATH}">Developers</a>: the MCP server and OAuth applications.</p>` : ""}`;
  return render(c, "Admin", body);
}

function developersPage(c: Context, state: SandboxState, session: BrowserSession, member: DemoMember): Response {
  const body = html`${adminNav(state, DEVELOPERS_PATH)}
<h1>Developers</h1>
${signedInAs(session, member)}
<h2>MCP server</h2>
<p>${MCP_SERVER_NAME} serves MCP over Streamable HTTP at <code>${state.issuer}${MCP_PATH}</code>. \
Anyone can browse the catalog; a member who authorizes an application gets their own enrollments, orders and event registrations too.</p>
<h2>OAuth applications</h2>
<p>Create the member clients that apps use to act for one member: you choose the scopes and pass the client ID to the app's developer.</p>
<p><a href="${OAUTH_APPLICATIONS_PATH}">Manage OAuth applications</a></p>
<p class="muted">Documentation: <a href="/auth.md">authentication</a>, \
<a href="/openapi.json">OpenAPI description</a>, <a href="/llms.txt">llms.txt</a>.</p>`;
  return render(c, "Developers", body);
}

interface FormValues {
  name: string;
  redirectUris: string;
  scopes: readonly string[];
  type: string;
}

const DEFAULT_FORM: FormValues = {
  name: "",
  redirectUris: "",
  scopes: ["openid", "profile", "email", "account:read"],
  type: "confidential",
};

function applicationsPage(
  c: Context,
  state: SandboxState,
  session: BrowserSession,
  member: DemoMember,
  options: { values?: FormValues; problems?: string[] } = {},
): Response {
  const values = options.values ?? DEFAULT_FORM;
  const clients = listMemberClients(state);
  const body = html`${adminNav(state, OAUTH_APPLICATIONS_PATH)}
<h1>OAuth applications</h1>
${signedInAs(session, member)}
${takeFlash(session)}
<section aria-labelledby="list-heading">
<h2 id="list-heading">Your applications</h2>
${
  clients.length === 0
    ? html`<p>No OAuth applications yet.</p>`
    : html`<table>
<thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Type</th>\
<th scope="col">Scopes</th><th scope="col">Redirect URIs</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${clients.map(
  (client) => html`<tr>
<th scope="row">${client.clientName}</th>
<td><code>${client.clientId}</code></td>
<td>${client.authMethod === "none" ? "Public" : "Confidential"}</td>
<td>${client.allowedScopes.join(" ")}</td>
<td>${client.redirectUris.map((uri) => html`<code>${uri}</code> `)}</td>
<td><form method="post" action="${OAUTH_APPLICATIONS_PATH}/${client.clientId}/delete">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
<button type="submit" class="secondary" aria-label="Delete ${client.clientName}">Delete</button>
</form></td>
</tr>`,
)}
</tbody>
</table>
<p class="muted">Deleting an application revokes every token issued to it.</p>`
}
</section>
<section aria-labelledby="create-heading">
<h2 id="create-heading">Create an OAuth application</h2>
${
  options.problems && options.problems.length > 0
    ? html`<div role="alert" class="alert"><p>The application was not created:</p>\
<ul>${options.problems.map((problem) => html`<li>${problem}</li>`)}</ul></div>`
    : ""
}
<form method="post" action="${OAUTH_APPLICATIONS_PATH}">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
<label for="app-name">Name</label>
<input id="app-name" name="name" type="text" required maxlength="100" value="${values.name}">
<label for="app-redirect-uris">Redirect URIs</label>
<textarea id="app-redirect-uris" name="redirect_uris" rows="3" required \
aria-describedby="app-redirect-uris-help">${values.redirectUris}</textarea>
<p id="app-redirect-uris-help" class="muted">One per line. HTTPS, or http on 127.0.0.1, [::1] or localhost for local development.</p>
<fieldset>
<legend>Scopes</legend>
${MEMBER_CLIENT_SCOPES.map(
  (scope, index) => html`<div class="check"><input type="checkbox" id="scope-${index}" \
name="scope" value="${scope}"${values.scopes.includes(scope) ? html` checked` : ""}>
<label for="scope-${index}">${SCOPE_LABELS[scope] ?? scope}</label></div>`,
)}
</fieldset>
<fieldset>
<legend>Client type</legend>
<div class="check"><input type="radio" id="type-confidential" \
name="type" value="confidential"${values.type !== "public" ? html` checked` : ""}>
<label for="type-confidential">Confidential: a server that can keep a client secret (client_secret_post)</label></div>
<div class="check"><input type="radio" id="type-public" name="type" value="public"${values.type === "public" ? html` checked` : ""}>
<label for="type-public">Public: an app that cannot keep a secret (PKCE only, no secret)</label></div>
</fieldset>
<button type="submit">Create application</button>
</form>
</section>`;
  return render(c, "OAuth applications", body, options.problems && options.problems.length > 0 ? 400 : 200);
}

function createdPage(c: Context, state: SandboxState, client: SandboxClient, clientSecret: string | undefined): Response {
  const body = html`${adminNav(state, "")}
<h1>Application created</h1>
<p role="status" class="notice">Created ${client.clientName}. \
Give the client ID${clientSecret ? " and the client secret" : ""} to the application's developer.</p>
<label for="created-client-id">Client ID</label>
<input id="created-client-id" type="text" readonly value="${client.clientId}">
${
  clientSecret
    ? html`<label for="created-client-secret">Client secret</label>
<input id="created-client-secret" type="text" readonly value="${clientSecret}" aria-describedby="secret-warning">
<p id="secret-warning" class="alert">Copy the client secret now: it is shown only this once. ${SCHOOL.name} keeps only a hash of it.</p>`
    : html`<p class="muted">This is a public client: it has no secret and must use PKCE.</p>`
}
<p><a href="${OAUTH_APPLICATIONS_PATH}">Back to OAuth applications</a></p>`;
  return render(c, "Application created", body);
}

export function registerAdminRoutes(app: Hono, state: SandboxState): void {
  app.get(SIGN_IN_PATH, (c) => {
    const returnTo = safeReturnTo(c.req.query("return_to"), state);
    if (currentSession(c, state)) return c.redirect(returnTo, 303);
    return signInPage(c, state, returnTo);
  });

  app.post(SIGN_IN_PATH, async (c) => {
    const read = await readPageForm(c);
    if (!read.ok) return read.response;
    const returnTo = safeReturnTo(read.form.get("return_to"), state);
    const csrf = read.form.get("csrf_token");
    const expected = getCookie(c, SIGN_IN_CSRF_COOKIE);
    if (csrf === undefined || expected === undefined || !safeEqual(csrf, expected)) {
      return signInPage(c, state, returnTo, { error: "The sign-in form expired. Try again.", status: 400 });
    }
    const email = (read.form.get("email") ?? "").slice(0, 320);
    const member = findMemberByEmail(email);
    if (!member || !safeEqual(read.form.get("password") ?? "", member.password)) {
      return signInPage(c, state, returnTo, {
        error: "That email and password do not match a demo account. Check both and try again.",
        email,
        status: 400,
      });
    }
    startSession(c, state, member);
    return c.redirect(returnTo, 303);
  });

  app.get(ADMIN_PATH, (c) => {
    const guard = requireOperator(c, state, ADMIN_PATH);
    return guard.ok ? adminHome(c, state, guard.session, guard.member) : guard.response;
  });

  app.post(`${ADMIN_PATH}/beta`, async (c) => {
    const guard = requireOperator(c, state, ADMIN_PATH);
    if (!guard.ok) return guard.response;
    const read = await readAdminForm(c, state, guard.session);
    if (!read.ok) return read.response;
    state.settings.mcpConnectionsBeta = read.form.get("mcp_connections") === "on";
    guard.session.flash = state.settings.mcpConnectionsBeta
      ? "MCP connections is on. Developers and OAuth applications are now in the admin menu."
      : "MCP connections is off. The Developers pages are hidden; existing applications keep working.";
    return c.redirect(ADMIN_PATH, 303);
  });

  app.get(DEVELOPERS_PATH, (c) => {
    const guard = requireOperator(c, state, DEVELOPERS_PATH);
    if (!guard.ok) return guard.response;
    if (!state.settings.mcpConnectionsBeta) return betaOffPage(c, state);
    return developersPage(c, state, guard.session, guard.member);
  });

  app.get(OAUTH_APPLICATIONS_PATH, (c) => {
    const guard = requireOperator(c, state, OAUTH_APPLICATIONS_PATH);
    if (!guard.ok) return guard.response;
    if (!state.settings.mcpConnectionsBeta) return betaOffPage(c, state);
    return applicationsPage(c, state, guard.session, guard.member);
  });

  app.post(OAUTH_APPLICATIONS_PATH, async (c) => {
    const guard = requireOperator(c, state, OAUTH_APPLICATIONS_PATH);
    if (!guard.ok) return guard.response;
    if (!state.settings.mcpConnectionsBeta) return betaOffPage(c, state);
    const read = await readAdminForm(c, state, guard.session);
    if (!read.ok) return read.response;
    const values: FormValues = {
      name: (read.form.get("name") ?? "").slice(0, 500),
      redirectUris: (read.form.get("redirect_uris") ?? "").slice(0, 25_000),
      scopes: read.form.getAll("scope").slice(0, 20),
      type: read.form.get("type") ?? "",
    };
    const created = createMemberClient(state, {
      name: values.name,
      redirectUris: values.redirectUris.split(/\r?\n/),
      scopes: values.scopes,
      type: values.type,
    });
    if (!created.ok) return applicationsPage(c, state, guard.session, guard.member, { values, problems: created.problems });
    return createdPage(c, state, created.client, created.clientSecret);
  });

  app.post(`${OAUTH_APPLICATIONS_PATH}/:clientId/delete`, async (c) => {
    const guard = requireOperator(c, state, OAUTH_APPLICATIONS_PATH);
    if (!guard.ok) return guard.response;
    if (!state.settings.mcpConnectionsBeta) return betaOffPage(c, state);
    const read = await readAdminForm(c, state, guard.session);
    if (!read.ok) return read.response;
    const client = state.clients.get(c.req.param("clientId"));
    if (!client || client.kind !== "admin") {
      guard.session.flash = "That application no longer exists.";
    } else {
      deleteClient(state, client.clientId);
      guard.session.flash = `Deleted ${client.clientName}. Every token issued to it has been revoked.`;
    }
    return c.redirect(OAUTH_APPLICATIONS_PATH, 303);
  });
}
