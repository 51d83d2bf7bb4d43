import "server-only";

import { headers } from "next/headers";
import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { requestIdOf } from "@/lib/http/request-id";
import { runWithRequestId } from "@/lib/log/logger";
import { processWide } from "@/lib/server/process-wide";
import { siteRequestOptions } from "@/lib/site/oauth-http";

/** The site's name is read at most this often; a failure is remembered briefly so a down site is not asked on every page. */
const NAME_TTL_MS = 10 * 60 * 1000;
const FAILURE_TTL_MS = 30 * 1000;
const MAX_NAME_LENGTH = 80;
/** Every page's layout waits for the name the first time: a slow site costs it at most this long (then "the site"). */
const NAME_TIMEOUT_MS = 2000;

/** One name per process, whichever Next.js bundle asks (every page's layout, the signed-out page's `/api/site`). */
const known = processWide("site-name", () => ({ cache: undefined as { expiresAt: number; name: Promise<string | null> } | undefined }));

async function readSiteName(): Promise<string | null> {
  try {
    const resource = new URL(getConfig().siteUrl);
    const response = await oauth.resourceDiscoveryRequest(resource, {
      ...siteRequestOptions(),
      signal: AbortSignal.timeout(NAME_TIMEOUT_MS),
    });
    // RFC 9728 section 3.3: the metadata's `resource` must be the one asked for (oauth4webapi checks it).
    const metadata = await oauth.processResourceDiscoveryResponse(resource, response);
    const name = typeof metadata.resource_name === "string" ? metadata.resource_name.trim() : "";
    // Plain text only, shown as text (React escapes it); a name too long to be one is not used.
    return name !== "" && name.length <= MAX_NAME_LENGTH && !/[\u0000-\u001f\u007f]/.test(name) ? name : null;
  } catch {
    return null;
  }
}

/**
 * The site's name as the site gives it (RFC 9728 `resource_name` of its protected-resource metadata), for
 * sentences such as "You are still signed in at Demo Academy". Null when the site names none: the
 * words then say "the site", never its host.
 */
export function getSiteName(now = Date.now()): Promise<string | null> {
  const { cache } = known;
  if (cache && cache.expiresAt > now) return cache.name;
  const name = readSiteName();
  known.cache = { expiresAt: now + NAME_TTL_MS, name };
  void name.then((value) => {
    if (value === null && known.cache?.name === name) known.cache = { expiresAt: Date.now() + FAILURE_TTL_MS, name };
  });
  return name;
}

/**
 * The site's name for a page's layout. The call it may make is the page request's: a failure's `site_error`
 * line carries the id the proxy handed to the render (X-Request-Id), as the page's own prefetch does.
 */
export async function getSiteNameForRender(): Promise<string | null> {
  const requestId = requestIdOf(await headers());
  return runWithRequestId(requestId, () => getSiteName());
}

/** Tests only. */
export function resetSiteNameCacheForTests(): void {
  known.cache = undefined;
}
