import type { Metadata } from "next";

import { SignedOutLanding } from "@/components/layout/signed-out-landing";
import { isSignedOutReason } from "@/lib/contract/paths";
import { isFramedRender } from "@/lib/http/embedding";

export const metadata: Metadata = { title: "Signed out" };

export default async function SignedOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ reason }, embedded] = await Promise.all([searchParams, isFramedRender()]);
  // In the site's panel, signed out means the panel's own Sign in (one press), not the top-level one.
  return <SignedOutLanding reason={isSignedOutReason(reason) ? reason : "signed_out"} embedded={embedded} />;
}
