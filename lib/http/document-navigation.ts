/**
 * Whether a page request is the browser loading a document (a top-level or framed navigation), as opposed
 * to the app router's own fetch of a page's payload (a Link prefetch or a client-side navigation).
 *
 * Next.js strips its router headers (`next-router-prefetch`, `rsc`, `next-router-segment-prefetch`) before
 * the proxy runs, so the proxy cannot tell a prefetch from a client-side navigation by them; the browser's
 * Fetch Metadata tells a document load from a fetch (W3C Fetch Metadata: `Sec-Fetch-Mode` is `navigate`
 * only for navigations). Without the header (not a browser, or an old one) the request counts as a document
 * load, as before.
 */
export function isDocumentNavigation(headers: Headers): boolean {
  const mode = headers.get("sec-fetch-mode");
  return mode === null || mode.toLowerCase() === "navigate";
}
