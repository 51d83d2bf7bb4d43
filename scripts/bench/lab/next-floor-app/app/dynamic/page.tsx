import { connection } from "next/server";

/** Rendered on every request (as every dashboard page is, for its nonce and the member's data), with one sentence in it. */
export default async function DynamicPage() {
  await connection();
  return <p>You are signed out. Sign in again to see your courses.</p>;
}
