import { authorizeWithoutBrowser } from "../../sandbox/testing";

import { RouteBrowser } from "./route-browser";

/** A browser over real HTTP: cookies from Set-Cookie, no redirects followed. */
export class HttpBrowser extends RouteBrowser {
  get(base: string, path: string): Promise<Response> {
    return this.fetch(`${base}${path}`);
  }

  /** A state-changing call as the dashboard's own pages send it: the dashboard's Origin and the custom header. */
  post(base: string, path: string, origin: string, body: unknown = {}): Promise<Response> {
    const headers = { origin, "x-requested-with": "companion-dashboard", "content-type": "application/json" };
    return this.fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  }

  /** Another browser holding a copy of these cookies as they are now. */
  snapshot(): HttpBrowser {
    const copy = new HttpBrowser();
    copy.cookies = new Map(this.cookies);
    return copy;
  }
}

export interface HttpSignIn {
  browser: HttpBrowser;
  /** The callback's path and query, to replay it. */
  callbackPath: string;
  /** The cookies the browser held when the site sent it back (the sign-in transaction). */
  transactionCookies: Map<string, string>;
  /** The callback's answer. */
  done: Response;
}

/** Signs in through the dashboard at `appUrl` and the sandbox's real pages, as a browser would. */
export async function signInOverHttp(
  appUrl: string,
  loginPath = "/api/auth/login?returnTo=%2F",
  email = "maya@example.com",
): Promise<HttpSignIn> {
  const browser = new HttpBrowser();
  const started = await browser.get(appUrl, loginPath);
  if (started.status !== 303) throw new Error(`login answered ${started.status}`);
  const redirect = await authorizeWithoutBrowser(started.headers.get("location")!, { email });
  const transactionCookies = new Map(browser.cookies);
  const callbackPath = `${redirect.pathname}${redirect.search}`;
  const done = await browser.get(appUrl, callbackPath);
  return { browser, callbackPath, transactionCookies, done };
}
