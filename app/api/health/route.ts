import { NextResponse } from "next/server";

import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.health, handleGet, { level: "debug" });

/** Liveness for launchers and load balancers: no site call, nothing personal. */
function handleGet() {
  return NextResponse.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
