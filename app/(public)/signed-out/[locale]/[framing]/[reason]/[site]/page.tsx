import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { SignedOutPageLanding } from "@/components/layout/signed-out-page-landing";
import { signedOutCopies, signedOutCopyOf } from "@/lib/contract/signed-out-copies";
import { getMessages } from "@/lib/i18n";

/**
 * One prerendered copy of the signed-out page. Never addressed by the browser: the proxy serves
 * `/signed-out?…` from the copy that fits (proxy.ts, lib/http/signed-out-page.ts), and refuses these
 * paths asked for directly, so that no address can make the page claim the site's sign-out without the
 * `state` this dashboard sealed (checklist case 63).
 */
export const dynamicParams = false;

export function generateStaticParams({ params }: { params: { locale: string; framing: string } }) {
  return signedOutCopies()
    .filter((copy) => copy.locale === params.locale && copy.framing === params.framing)
    .map((copy) => ({ reason: copy.reason, site: copy.siteSession ?? "none" }));
}

type Params = Promise<{ locale: string; framing: string; reason: string; site: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const copy = signedOutCopyOf(await params);
  return copy ? { title: getMessages(copy.locale).signedOutPage.title } : {};
}

export default async function SignedOutPage({ params }: { params: Params }) {
  const copy = signedOutCopyOf(await params);
  if (!copy) notFound();
  // Inside the site's page the landing offers the panel's popup sign-in (components/layout/embedding-context.tsx).
  return <SignedOutPageLanding reason={copy.reason} siteSession={copy.siteSession} />;
}
