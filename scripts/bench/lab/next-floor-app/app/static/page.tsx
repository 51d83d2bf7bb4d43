/** Prerendered at build time: Next.js serves the stored HTML (what a page without a per-request nonce could be). */
export default function StaticPage() {
  return <p>You are signed out. Sign in again to see your courses.</p>;
}
