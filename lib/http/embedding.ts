import "server-only";

import { headers } from "next/headers";

/**
 * True when the browser loads this document inside a frame (Fetch Metadata `Sec-Fetch-Dest: iframe`):
 * the dashboard is then embedded in the site's page as a companion panel.
 */
export function isFramedRequest(requestHeaders: Headers): boolean {
  return requestHeaders.get("sec-fetch-dest") === "iframe";
}

export async function isFramedRender(): Promise<boolean> {
  return isFramedRequest(await headers());
}
