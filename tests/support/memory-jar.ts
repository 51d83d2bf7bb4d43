import type { CookieJar } from "iron-session";

/** A browser-like cookie jar for unit tests: remembers what was written, forgets cookies written with maxAge 0. */
export interface MemoryJar extends CookieJar {
  cookies: Map<string, string>;
  options: Map<string, Record<string, unknown>>;
  /** The Cookie header a browser would send next. */
  header(): string;
}

export function memoryJar(initial: Record<string, string> = {}): MemoryJar {
  const cookies = new Map(Object.entries(initial));
  const options = new Map<string, Record<string, unknown>>();
  return {
    cookies,
    options,
    read: (name) => cookies.get(name),
    names: () => [...cookies.keys()],
    write: (name, value, cookieOptions) => {
      options.set(name, { ...cookieOptions });
      if (cookieOptions.maxAge === 0 || value === "") cookies.delete(name);
      else cookies.set(name, value);
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
  };
}

/** A copy of the jar, as a second tab or a replayed request would hold it. */
export function cloneJar(jar: MemoryJar): MemoryJar {
  return memoryJar(Object.fromEntries(jar.cookies));
}
