/**
 * Test helpers for driving the sandbox over real HTTP without a browser.
 */
import { SetCookieJar } from "./cookie-jar";

export interface AuthorizeWithoutBrowserOptions {
  email: string;
  /** Default: the demo password. */
  password?: string;
  /** Default: "allow". */
  decision?: "allow" | "deny";
  /**
   * With the partialConsent knob, the scopes left ticked on the consent page (default: all, as the page
   * shows them ticked).
   */
  grantScopes?: readonly string[];
  /**
   * Sends each request instead of the helper's own cookie jar (no redirects followed): a browser's, so that
   * the site's cookies end up where that browser keeps them.
   */
  send?: SendRequest;
}

/** Sends one request and answers without following a redirect. */
export type SendRequest = (url: URL, init: RequestInit) => Promise<Response>;

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

interface ParsedForm {
  action: string;
  fields: Record<string, string>;
}

/** Finds the form posting to `action` and its hidden fields. */
export function findForm(page: string, action: string): ParsedForm | undefined {
  const forms = page.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
  for (const form of forms) {
    const actionMatch = /action="([^"]*)"/.exec(form);
    if (decodeEntities(actionMatch?.[1] ?? "") !== action) continue;
    const fields: Record<string, string> = {};
    for (const input of form.match(/<input\b[^>]*>/g) ?? []) {
      // Hidden fields, and checkboxes as the page ticks them.
      if (!/type="hidden"/.test(input) && !/type="checkbox"[^>]*\bchecked\b/.test(input)) continue;
      const name = /name="([^"]*)"/.exec(input)?.[1];
      const value = /value="([^"]*)"/.exec(input)?.[1];
      if (name !== undefined) fields[decodeEntities(name)] = decodeEntities(value ?? "");
    }
    return { action, fields };
  }
  return undefined;
}

function alertText(page: string): string | undefined {
  const match = /role="alert"[^>]*>([\s\S]*?)</.exec(page);
  return match?.[1] ? decodeEntities(match[1]).trim() : undefined;
}

/**
 * Drives the sandbox's sign-in and consent pages with a SandboxBrowser (its own cookies, no redirects followed) and
 * returns the URL the sandbox finally redirects to: the client's redirect_uri with `code`, `state` and `iss`, or
 * with `error`. Throws when the sandbox shows an error page or refuses the password.
 */
export async function authorizeWithoutBrowser(authorizeUrl: string, opts: AuthorizeWithoutBrowserOptions): Promise<URL> {
  const origin = new URL(authorizeUrl).origin;
  const browser = new SandboxBrowser(origin, opts.send);

  let response = await browser.request(authorizeUrl);
  for (let step = 0; step < 10; step += 1) {
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      if (location === null) throw new Error(`The sandbox answered ${response.status} without a Location`);
      const target = new URL(location, origin);
      if (target.origin !== origin || !target.pathname.startsWith("/oauth/authorize")) return target;
      await response.body?.cancel();
      response = await browser.request(target.toString());
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) {
      throw new Error(`The sandbox showed an error page (${response.status}): ${alertText(page) ?? "no message"}`);
    }
    const signIn = findForm(page, "/oauth/authorize/sign-in");
    if (signIn) {
      if (step > 0 && alertText(page) !== undefined) throw new Error(`Sign-in refused: ${alertText(page)}`);
      response = await browser.post(signIn.action, { ...signIn.fields, email: opts.email, password: opts.password ?? "demo" });
      if (response.status === 200) {
        const again = await response.text();
        throw new Error(`Sign-in refused: ${alertText(again) ?? "unknown reason"}`);
      }
      continue;
    }
    const consent = findForm(page, "/oauth/authorize/decision");
    if (consent) {
      const fields = { ...consent.fields };
      if (opts.grantScopes) {
        for (const name of Object.keys(fields)) if (name.startsWith("grant.")) delete fields[name];
        for (const scope of opts.grantScopes) fields[`grant.${scope}`] = "on";
      }
      response = await browser.post(consent.action, { ...fields, decision: opts.decision ?? "allow" });
      continue;
    }
    throw new Error("The sandbox page has neither a sign-in nor a consent form");
  }
  throw new Error("Too many steps while authorizing");
}

/** The value of the first hidden `csrf_token` field of a page. */
export function csrfTokenOf(page: string): string | undefined {
  const input = /<input\b[^>]*name="csrf_token"[^>]*>/.exec(page)?.[0];
  const value = input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
  return value === undefined ? undefined : decodeEntities(value);
}

/**
 * A cookie-keeping HTTP client for the sandbox's own pages (no redirects followed), e.g. to drive the admin area
 * in tests: `const browser = await SandboxBrowser.signIn(url, "olivia@example.com")`.
 */
export class SandboxBrowser {
  private readonly jar = new SetCookieJar();

  constructor(
    readonly origin: string,
    private readonly send: SendRequest = (url, init) => this.jar.fetch(url, init),
  ) {}

  static async signIn(origin: string, email: string, password = "demo"): Promise<SandboxBrowser> {
    const browser = new SandboxBrowser(origin);
    const page = await (await browser.get("/sign-in?return_to=/admin")).text();
    const csrf = csrfTokenOf(page);
    if (csrf === undefined) throw new Error("The sign-in page has no form");
    const response = await browser.post("/sign-in", { csrf_token: csrf, return_to: "/admin", email, password });
    await response.body?.cancel();
    if (response.status !== 303) throw new Error(`Sign-in refused (${response.status})`);
    return browser;
  }

  /** A request to `path` (or an absolute URL) with this browser's cookies, no redirects followed. */
  request(path: string, init: RequestInit = {}): Promise<Response> {
    return this.send(new URL(path, this.origin), init);
  }

  get(path: string): Promise<Response> {
    return this.request(path);
  }

  /** Posts a form; a field given an array is repeated (checkbox groups). */
  post(path: string, fields: Record<string, string | readonly string[]>, headers: Record<string, string> = {}): Promise<Response> {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const item of typeof value === "string" ? [value] : value) body.append(key, item);
    }
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: body.toString(),
    });
  }
}

/**
 * POSTs to a control endpoint (`/__sandbox/knobs`, `/__sandbox/reset`) the only way the sandbox accepts:
 * a JSON body with the site's own Origin (server.ts refuses forms and other origins).
 */
export function postSandboxControl(siteUrl: string, path: `/__sandbox/${string}`, body: unknown = {}): Promise<Response> {
  const origin = new URL(siteUrl).origin;
  return fetch(new URL(path, origin), {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(body),
  });
}
