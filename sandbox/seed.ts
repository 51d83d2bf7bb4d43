/**
 * Demo members and OAuth clients of the sandbox site. Account data (enrollments, orders, events) lives in
 * `./data/account.ts` and is computed relative to the current time so that it never goes stale.
 */
import { createHash } from "node:crypto";

export const DEMO_PASSWORD = "demo";

/** The one organization (school) the sandbox site represents. */
export const SCHOOL = {
  orgId: "school_4f2a",
  schoolId: "school_4f2a",
  subdomain: "demo-academy",
  name: "Demo Academy",
} as const;

export type MemberRole = "owner" | "admin" | "instructor" | "student";

export interface DemoMember {
  id: string;
  email: string;
  name: string;
  password: string;
  /** Ordered highest first, as the real platform's UserInfo does. */
  roles: readonly MemberRole[];
  /** A one-line description shown on the sign-in page. */
  description: string;
}

export const DEMO_MEMBERS: readonly DemoMember[] = [
  {
    id: "member_7c1e90",
    email: "maya@example.com",
    name: "Maya Chen",
    password: DEMO_PASSWORD,
    roles: ["student"],
    description: "Student with courses, orders and events",
  },
  {
    id: "member_3b8d21",
    email: "kai@example.com",
    name: "Kai Lin",
    password: DEMO_PASSWORD,
    roles: ["student"],
    description: "Student with 130 enrollments",
  },
  {
    id: "member_91f4a7",
    email: "ben@example.com",
    name: "Ben Okafor",
    password: DEMO_PASSWORD,
    roles: ["student"],
    description: "New student with nothing yet",
  },
  {
    id: "member_0d5c62",
    email: "olivia@example.com",
    name: "Olivia Park",
    password: DEMO_PASSWORD,
    roles: ["owner", "admin", "student"],
    description: "Site operator (owner)",
  },
];

export function findMemberByEmail(email: string): DemoMember | undefined {
  const wanted = email.trim().toLowerCase();
  return DEMO_MEMBERS.find((member) => member.email === wanted);
}

export function findMemberById(id: string): DemoMember | undefined {
  return DEMO_MEMBERS.find((member) => member.id === id);
}

export type ClientAuthMethod = "none" | "client_secret_post";
export type ClientAudience = "member" | "operator";
/**
 * Where a client comes from: seeded test clients, pre-registered vendor integrations (section 5.3 rule 1),
 * loopback registrations (rule 2), Client ID Metadata Documents (rule 5), and member clients an operator
 * created in the admin area (rule 7).
 */
export type ClientKind = "seeded" | "vendor" | "loopback" | "cimd" | "admin";

export interface SandboxClient {
  clientId: string;
  clientName: string;
  /** SHA-256 (hex) of the client secret; present exactly when `authMethod` is `client_secret_post`. */
  clientSecretHash?: string;
  authMethod: ClientAuthMethod;
  redirectUris: readonly string[];
  /** Where the end-session endpoint may send the browser back (RP-Initiated Logout 1.0 section 3), compared exactly. */
  postLogoutRedirectUris?: readonly string[];
  allowedScopes: readonly string[];
  audience: ClientAudience;
  kind: ClientKind;
  /** Creation time in ms since the epoch (sandbox clock). */
  createdAt: number;
}

/** SHA-256 (hex) of a client secret: the only form in which secrets are kept. */
export function hashClientSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export const DASHBOARD_CLIENT_ID = "companion-dashboard";
export const DASHBOARD_CLIENT_SECRET = "sandbox-companion-dashboard-secret";
export const DASHBOARD_CLIENT_NAME = "Member companion dashboard";
export const DEFAULT_DASHBOARD_REDIRECT_URIS: readonly string[] = ["http://localhost:3000/api/auth/callback"];

export const SEEDED_DASHBOARD_CLIENT = {
  clientId: DASHBOARD_CLIENT_ID,
  clientSecret: DASHBOARD_CLIENT_SECRET,
} as const;

export const PUBLIC_CLIENT_ID = "companion-public";
export const PUBLIC_CLIENT_REDIRECT_URI = "http://127.0.0.1:8976/callback";

export const OPERATOR_CLIENT_ID = "operator-cli";
export const OPERATOR_CLIENT_REDIRECT_URI = "http://127.0.0.1:8977/callback";

export const SEEDED_PUBLIC_CLIENT = {
  clientId: PUBLIC_CLIENT_ID,
  redirectUri: PUBLIC_CLIENT_REDIRECT_URI,
} as const;

export const SEEDED_OPERATOR_CLIENT = {
  clientId: OPERATOR_CLIENT_ID,
  redirectUri: OPERATOR_CLIENT_REDIRECT_URI,
} as const;

export const MEMBER_CLIENT_SCOPES: readonly string[] = ["openid", "profile", "email", "account:read", "account:write"];

/** Every scope of section 5.5 of the Site Access API, in its order. */
export const ALL_SCOPES: readonly string[] = [
  "openid",
  "profile",
  "email",
  "courses:read",
  "courses:write",
  "students:read",
  "students:write",
  "members:read",
  "members:write",
  "analytics:read",
  "curriculum:read",
  "curriculum:write",
  "orders:read",
  "school:read",
  "school:write",
  "appearance:read",
  "appearance:write",
  "events:read",
  "events:write",
  "membership_plans:read",
  "membership_plans:write",
  "coupons:read",
  "coupons:write",
  "posts:read",
  "posts:write",
  "subscriptions:read",
  "subscriptions:write",
  "digital_products:read",
  "digital_products:write",
  "comments:read",
  "lecturers:read",
  "lecturers:write",
  "storage:write",
  "forms:read",
  "pages:read",
  "pages:write",
  "account:read",
  "account:write",
];

/** Scopes reserved to the member audience (section 5.4). */
export const MEMBER_ONLY_SCOPES: readonly string[] = ["account:read", "account:write"];

/** Every scope an operator client (section 5.3 rules 1 to 6) may hold: all but the member-only ones. */
export const OPERATOR_SCOPES: readonly string[] = ALL_SCOPES.filter((scope) => !MEMBER_ONLY_SCOPES.includes(scope));

/**
 * What an unreviewed Client ID Metadata Document client may request (section 5.3 rule 5, section 8): identity
 * scopes and the operator read scopes. Never `account:*` (section 5.4) and never a write scope.
 */
export const UNREVIEWED_CLIENT_SCOPES: readonly string[] = OPERATOR_SCOPES.filter(
  (scope) => ["openid", "profile", "email"].includes(scope) || scope.endsWith(":read"),
);

/** A vendor platform integration arranged with the site's operator (section 5.3 rule 1). */
export interface VendorIntegration {
  clientId: string;
  /** Matched case-insensitively against the registration request's `client_name`. */
  clientName: string;
  /** The integration's own redirect URIs, fixed when it was arranged. */
  redirectUris: readonly string[];
  /** `client_id_issued_at` (seconds since the epoch) reported at registration. */
  issuedAt: number;
}

export const VENDOR_INTEGRATIONS: readonly VendorIntegration[] = [
  {
    clientId: "vendor-claude-5f3a91",
    clientName: "Claude",
    redirectUris: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
    issuedAt: 1_735_689_600,
  },
  {
    clientId: "vendor-chatgpt-7c2e40",
    clientName: "ChatGPT",
    redirectUris: ["https://chatgpt.com/connector_platform_oauth_redirect"],
    issuedAt: 1_735_689_600,
  },
  {
    clientId: "vendor-cursor-19bd6e",
    clientName: "Cursor",
    redirectUris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
    issuedAt: 1_738_368_000,
  },
];

export function findVendorIntegration(clientName: string): VendorIntegration | undefined {
  const wanted = clientName.trim().toLowerCase();
  return VENDOR_INTEGRATIONS.find((vendor) => vendor.clientName.toLowerCase() === wanted);
}

export function seedClients(dashboardRedirectUris: readonly string[], now: number): SandboxClient[] {
  return [
    {
      clientId: DASHBOARD_CLIENT_ID,
      clientName: DASHBOARD_CLIENT_NAME,
      clientSecretHash: hashClientSecret(DASHBOARD_CLIENT_SECRET),
      authMethod: "client_secret_post",
      redirectUris: [...dashboardRedirectUris],
      postLogoutRedirectUris: dashboardRedirectUris.map((uri) => new URL("/signed-out", uri).toString()),
      allowedScopes: MEMBER_CLIENT_SCOPES,
      audience: "member",
      kind: "seeded",
      createdAt: now,
    },
    {
      clientId: PUBLIC_CLIENT_ID,
      clientName: "Companion (public test client)",
      authMethod: "none",
      redirectUris: [PUBLIC_CLIENT_REDIRECT_URI],
      allowedScopes: MEMBER_CLIENT_SCOPES,
      audience: "member",
      kind: "seeded",
      createdAt: now,
    },
    {
      clientId: OPERATOR_CLIENT_ID,
      clientName: "Operator CLI (test client)",
      authMethod: "none",
      redirectUris: [OPERATOR_CLIENT_REDIRECT_URI],
      allowedScopes: OPERATOR_SCOPES,
      audience: "operator",
      kind: "seeded",
      createdAt: now,
    },
    // Vendor integrations are public clients: anyone naming the vendor at registration learns the client_id,
    // so only the integration's fixed redirect URIs (and PKCE) protect its codes.
    ...VENDOR_INTEGRATIONS.map((vendor): SandboxClient => ({
      clientId: vendor.clientId,
      clientName: vendor.clientName,
      authMethod: "none",
      redirectUris: vendor.redirectUris,
      allowedScopes: OPERATOR_SCOPES,
      audience: "operator",
      kind: "vendor",
      createdAt: vendor.issuedAt * 1000,
    })),
  ];
}
