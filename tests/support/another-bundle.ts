import { vi } from "vitest";

/**
 * A module as another Next.js bundle loads it: a copy of its own. Next.js bundles the proxy, the pages and
 * the route handlers apart, so a module-level variable is one per bundle; a fresh import stands for that.
 */
export async function anotherBundlesCopy<T>(path: string): Promise<T> {
  vi.resetModules();
  return (await import(/* @vite-ignore */ path)) as T;
}
