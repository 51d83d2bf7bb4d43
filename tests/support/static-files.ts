/**
 * The static files a page's HTML makes a browser fetch, as paths: those its tags name (stylesheets,
 * preloads, scripts) and those its RSC payload names for hydration (client components' chunks). Read by
 * the journey that checks what a cache in front may keep (tests/e2e/security.spec.ts) and by the bench's
 * cold load (scripts/bench/lab/compression.ts).
 */
export function staticFilesNamedBy(html: string): string[] {
  return [...new Set(html.match(/\/_next\/static\/[\w.~/-]+/g))];
}
