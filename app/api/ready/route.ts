import { NextResponse } from "next/server";

import { checkReadiness } from "@/lib/http/readiness";
import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.ready, handleGet, { level: "debug" });

/**
 * Readiness for load balancers: 200 when the site's metadata answers and, with REDIS_URL or REDIS_SENTINELS, Redis answers;
 * otherwise 503 naming the failing dependency. `/api/health` stays pure liveness.
 */
async function handleGet() {
  const readiness = await checkReadiness();
  return NextResponse.json(readiness, { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}
