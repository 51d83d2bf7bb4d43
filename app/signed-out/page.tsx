import type { Metadata } from "next";

import { SignedOutLanding } from "@/components/layout/signed-out-landing";
import { isSignedOutReason } from "@/lib/contract/paths";
import { isFramedRender } from "@/lib/http/embedding";

export const metadata: Metadata = { title: "Signed out" };

export default async function SignedOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason } = await searchParams;
  // Inside the site's page (a withdrawn access ends the frame's session too), sign-in starts from the popup.
  return <SignedOutLanding reason={isSignedOutReason(reason) ? reason : "signed_out"} embedded={await isFramedRender()} />;
}
