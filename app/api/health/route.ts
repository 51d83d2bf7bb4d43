import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/** Liveness for launchers and load balancers: no site call, nothing personal. */
export function GET() {
  return NextResponse.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}
