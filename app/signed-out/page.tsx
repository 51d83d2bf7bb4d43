import type { Metadata } from "next";

import { SignedOutLanding } from "@/components/layout/signed-out-landing";
import { isSignedOutReason } from "@/lib/contract/paths";

export const metadata: Metadata = { title: "Signed out" };

export default async function SignedOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason } = await searchParams;
  return <SignedOutLanding reason={isSignedOutReason(reason) ? reason : "signed_out"} />;
}
