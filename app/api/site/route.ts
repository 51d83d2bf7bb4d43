import { NextResponse } from "next/server";

import { getSiteName } from "@/lib/auth/site-name";
import { getConfig } from "@/lib/config";
import { API_ROUTES } from "@/lib/contract/paths";
import type { PublicSiteInfo } from "@/lib/contract/site-info";
import { loggedRoute } from "@/lib/http/request-log";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.site, handleGet, { level: "debug" });

/** The site's name, address and framing origins for the prerendered signed-out page: the same for everyone. */
async function handleGet() {
  const { siteUrl, embedOrigins } = getConfig();
  const body: PublicSiteInfo = { name: await getSiteName(), url: siteUrl, embedOrigins: [...embedOrigins] };
  return NextResponse.json(body);
}
