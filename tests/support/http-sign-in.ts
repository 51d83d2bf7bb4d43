import { authorizeWithoutBrowser, SandboxBrowser } from "@/sandbox/testing";

/**
 * Signs a member in to a running dashboard over real HTTP, as a browser would (login, the sandbox's
 * pages, the callback), and returns the cookie-keeping client holding the session.
 */
export async function signInOverHttp(appUrl: string, email = "maya@example.com"): Promise<SandboxBrowser> {
  const browser = new SandboxBrowser(appUrl);
  const login = await browser.get("/api/auth/login?returnTo=/courses");
  await login.body?.cancel();
  if (login.status !== 303) throw new Error(`login answered ${login.status}`);
  const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email });
  const callback = await browser.get(`/api/auth/callback${redirect.search}`);
  await callback.body?.cancel();
  if (callback.status !== 303 || new URL(callback.headers.get("location")!, appUrl).pathname !== "/courses") {
    throw new Error(`the callback answered ${callback.status} to ${callback.headers.get("location")}`);
  }
  return browser;
}
