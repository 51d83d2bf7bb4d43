/**
 * A browser's cookies for tests, sandbox helpers and tools that talk HTTP without a browser: kept from
 * Set-Cookie answers and sent back as one Cookie header. One origin at a time, so only name and value
 * are kept (Path, Domain and Secure are not applied); a cookie set empty, with Max-Age=0 or less, or
 * with an Expires in the past is dropped. It lives in the sandbox because the sandbox never imports the app.
 */
export class SetCookieJar {
  /** Name to value; tests may read, copy or replace it. */
  cookies = new Map<string, string>();
  /** Every Set-Cookie line absorbed, oldest first, for tests that check attributes. */
  setCookieLines: string[] = [];

  /** Keeps the response's cookies and returns the response. */
  absorb(response: Response): Response {
    this.absorbLines(response.headers.getSetCookie());
    return response;
  }

  /** Keeps the cookies of raw Set-Cookie lines (from a client that is not fetch). */
  absorbLines(lines: readonly string[]): void {
    for (const line of lines) {
      this.setCookieLines.push(line);
      const [pair = "", ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === "" || attributes.some(isExpiry)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie header's value ("" when there is none). */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** `{ cookie }` for a request's headers, or nothing when there is none. */
  headers(): Record<string, string> {
    const cookie = this.header();
    return cookie === "" ? {} : { cookie };
  }

  list(): { name: string; value: string }[] {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }

  /** `fetch` with these cookies, no redirects followed; the answer's cookies are kept. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header();
    if (cookie !== "") headers.set("cookie", cookie);
    return this.absorb(await fetch(url, { ...init, headers, redirect: "manual" }));
  }
}

function isExpiry(attribute: string): boolean {
  const [key = "", value = ""] = attribute.split("=", 2).map((part) => part.trim());
  if (/^max-age$/i.test(key)) return Number(value) <= 0;
  if (/^expires$/i.test(key)) return Date.parse(value) <= Date.now();
  return false;
}
