import "server-only";

import type { SiteLinkConfig } from "./reshape";

/**
 * What loading one account page is given: the member's access token (every call goes through the client,
 * ./client.ts), where to go on, and what reshaping needs. Each page (./pages/) exports its `load` taking this.
 */
export interface AccountPageRequest {
  accessToken: string;
  /** Where to go on (`?after=`, a cursor from an earlier answer's `nextCursor`); null: the start. */
  after: string | null;
  /** The URL templates Resume and course links are built from, and where the pages may show covers from. */
  siteLinks: SiteLinkConfig;
  /** The moment "upcoming" and "ending soon" are measured from. */
  now: Date;
  /** The member's time zone (the browser's `tz` cookie), where an all-day event's last day ends. */
  timeZone: string;
}
