import { NextResponse, type NextRequest } from "next/server";

import { getConfig } from "@/lib/config";
import { API_ROUTES } from "@/lib/contract/paths";
import { loggedRoute } from "@/lib/http/request-log";
import { isAuthorizedScrape, metricsExposition } from "@/lib/metrics/exposition";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.metrics, handleGet, { level: "debug" });

/**
 * The Prometheus endpoint on the members' origin: only with METRICS_TOKEN set, and only for a request bearing it
 * (README, Metrics). Otherwise, and for a wrong token, it is not there (404): nothing tells a stranger it exists.
 */
async function handleGet(request: NextRequest) {
  if (!isAuthorizedScrape(request.headers.get("authorization"), getConfig().metrics.token)) {
    return NextResponse.json(
      { error: { code: "not_found", message: "Not found." } },
      { status: 404, headers: { "cache-control": "no-store" } },
    );
  }
  const { body, contentType } = await metricsExposition();
  return new NextResponse(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
