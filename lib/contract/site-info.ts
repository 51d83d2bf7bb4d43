/**
 * What `GET /api/site` answers: the site the dashboard serves, as the signed-out page shows it (that page
 * is prerendered, so it asks once the browser has it: proxy.ts). Nothing personal. Client-safe.
 */
export interface PublicSiteInfo {
  /** The site's name as the site gives it (RFC 9728 `resource_name`), or null when it gives none. */
  name: string | null;
  /** The site's address (SITE_URL). */
  url: string;
  /** The site's origins allowed to frame the dashboard (EMBED_ORIGINS), which the panel reports its height to. */
  embedOrigins: string[];
}
