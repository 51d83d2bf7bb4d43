/**
 * Who is signed in, as `GET /api/session` answers it and the Settings page prefetches it: an allow-list
 * of claims and the granted scopes, never a token. Client-safe. docs/architecture.md sections 4 and 7.
 */
export interface SessionView {
  sub: string;
  name: string;
  email: string;
  orgId: string;
  /** Ordered, highest first, as the site's UserInfo lists them. */
  roles: string[];
  /** The site's origin, e.g. "https://school.example.com". */
  site: string;
  /** Scopes the site granted, e.g. ["openid", "profile", "email", "account:read"]. */
  scopes: string[];
  /** When the member granted access (ISO 8601). */
  grantedAt: string;
}
