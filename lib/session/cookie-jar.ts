import "server-only";

import type { CookieJar } from "iron-session";

/** What the session and transaction modules need to read cookies: `NextRequest.cookies` and `await cookies()` both fit. */
export interface CookieSource {
  get(name: string): { name: string; value: string } | undefined;
  getAll(): { name: string; value: string }[];
}

/** What they need to write cookies: `NextResponse.cookies` fits. */
export interface CookieSink {
  set(name: string, value: string, options: Record<string, unknown>): unknown;
}

/** A route handler or the proxy: reads the request, writes the response (and, in the proxy, the forwarded request). */
export function requestResponseJar(
  source: CookieSource,
  sink: CookieSink,
  forwarded?: { set(name: string, value: string): unknown },
): CookieJar {
  const written = new Map<string, string>();
  return {
    read: (name) => (written.has(name) ? written.get(name) || undefined : source.get(name)?.value),
    names: () => [...new Set([...source.getAll().map((cookie) => cookie.name), ...written.keys()])],
    write: (name, value, options) => {
      written.set(name, value);
      sink.set(name, value, { ...options });
      forwarded?.set(name, value);
    },
  };
}

/**
 * A Server Component render: Next.js cannot set cookies there, so writing is a programming error.
 * This is what keeps a page render from spending a refresh token it could not persist.
 */
export function readOnlyJar(source: CookieSource): CookieJar {
  return {
    read: (name) => source.get(name)?.value,
    names: () => source.getAll().map((cookie) => cookie.name),
    write: () => {
      throw new Error("A Server Component render cannot write cookies.");
    },
  };
}

/** Collects cookie writes during a route handler, to apply to whichever response it returns. */
export class CookieBuffer implements CookieSink {
  private readonly writes: [string, string, Record<string, unknown>][] = [];

  set(name: string, value: string, options: Record<string, unknown>): void {
    this.writes.push([name, value, options]);
  }

  get isEmpty(): boolean {
    return this.writes.length === 0;
  }

  applyTo<T extends { cookies: CookieSink; headers: Headers }>(response: T): T {
    for (const [name, value, options] of this.writes) response.cookies.set(name, value, options);
    // Anything that sets a cookie is personal: never stored by a shared cache (OWASP ASVS 5 V14.3).
    if (!this.isEmpty) response.headers.set("cache-control", "no-store");
    return response;
  }
}
