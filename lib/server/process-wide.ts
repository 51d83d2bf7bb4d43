/**
 * One value per process, whichever bundle asks. Next.js bundles the proxy, the pages and the route
 * handlers apart, each with its own copy of a module, so a module-level variable is one per bundle:
 * what the page render learned, a data route would learn again. `name` keys the value on globalThis.
 */
export function processWide<T extends object>(name: string, create: () => T): T {
  const scope = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(`companion-dashboard.${name}`);
  scope[key] ??= create();
  return scope[key] as T;
}
