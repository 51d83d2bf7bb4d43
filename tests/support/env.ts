import { randomBytes } from "node:crypto";

export const TEST_CLIENT_ID = "companion-dashboard-test";
export const TEST_CLIENT_SECRET = "test-client-secret-0123456789abcdef";
export const TEST_APP_URL = "http://localhost:3999";

/** Points the dashboard's configuration at a site for this test file (each file runs in its own module scope). */
export function configureDashboard(siteUrl: string, extra: Record<string, string> = {}): void {
  Object.assign(process.env, {
    SITE_URL: siteUrl,
    OAUTH_CLIENT_ID: TEST_CLIENT_ID,
    OAUTH_CLIENT_SECRET: TEST_CLIENT_SECRET,
    APP_URL: TEST_APP_URL,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    // A file before this one in the same worker may have named another issuer.
    SITE_ISSUER: "",
    ...extra,
  });
}
