import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { graphql, obtainTokens, postForm } from "./helpers";

let sandbox: RunningSandbox;
let mayaToken: string;
const SISTER = "https://sister.example.com";

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, knobs: { foreignResources: [SISTER] } });
  mayaToken = (await obtainTokens(sandbox)).accessToken;
});
afterAll(async () => {
  await sandbox.close();
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const FULL_QUERY = /* GraphQL */ `
  query Overview {
    viewer {
      id email name
      enrolledCourses(first: 20) {
        totalCount pageInfo { hasNextPage endCursor }
        nodes {
          slug name imageUrl expireDate hasLifetimeAccess completionPercentage
          lastWatchedLecture { lectureId positionSeconds title watchedAt }
        }
      }
      orders {
        totalCount
        nodes { id tradeNo state currency amount refundedAmount paidAt createdAt paymentUrl lineItems { name amount itemType } }
      }
      eventRegistrations { totalCount nodes { id state registeredAt event { id title startTime endTime isAllDay location url } } }
    }
  }
`;

interface Enrollment {
  slug: string;
  name: string;
  imageUrl: string;
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  completionPercentage: number | null;
  lastWatchedLecture: { lectureId: string; positionSeconds: number; title: string; watchedAt: string } | null;
}

describe("Account API: data", () => {
  it("answers the full schema for Maya with realistic, current data", async () => {
    const response = await graphql(sandbox, mayaToken, FULL_QUERY);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const viewer = (response.body.data as { viewer: Record<string, unknown> }).viewer;
    expect(viewer).toMatchObject({ id: "member_7c1e90", email: "maya@example.com", name: "Maya Chen" });
    const courses = viewer.enrolledCourses as { totalCount: number; nodes: Enrollment[] };
    expect(courses.totalCount).toBe(8);
    const now = Date.now();
    const days = (iso: string | null) => (iso === null ? null : (Date.parse(iso) - now) / 86_400_000);
    const remaining = courses.nodes.map((node) => days(node.expireDate));
    expect(remaining.some((d) => d !== null && d > 2.9 && d <= 3)).toBe(true);
    expect(remaining.some((d) => d !== null && d > 39.9 && d <= 40)).toBe(true);
    expect(remaining.some((d) => d !== null && d < -6 && d > -8)).toBe(true);
    expect(courses.nodes.filter((n) => n.hasLifetimeAccess && n.expireDate === null)).toHaveLength(2);
    expect(courses.nodes.some((n) => (n.lastWatchedLecture?.positionSeconds ?? 0) > 3600)).toBe(true);
    for (const node of courses.nodes) {
      expect(node.imageUrl).toBe(`${sandbox.url}/covers/${node.slug}.svg`);
      if (node.expireDate) expect(node.expireDate).toMatch(ISO_WITH_OFFSET);
      if (node.lastWatchedLecture) expect(node.lastWatchedLecture.watchedAt).toMatch(ISO_WITH_OFFSET);
    }
    const orders = viewer.orders as {
      nodes: {
        state: string;
        currency: string;
        refundedAmount: number | null;
        createdAt: string;
        tradeNo: string;
        paymentUrl: string | null;
        lineItems: { itemType: string }[];
      }[];
    };
    // Newest first, as a site lists them; only an order awaiting payment says where it is paid.
    const placed = orders.nodes.map((o) => Date.parse(o.createdAt));
    expect(placed).toEqual([...placed].sort((a, b) => b - a));
    for (const o of orders.nodes) {
      expect(o.paymentUrl).toBe(o.state === "not_paid" ? `${sandbox.url}/orders/${o.tradeNo}/pay` : null);
    }
    expect(new Set(orders.nodes.map((o) => o.currency))).toEqual(new Set(["TWD", "USD"]));
    expect(orders.nodes.some((o) => o.state === "refunded" && (o.refundedAmount ?? 0) > 0)).toBe(true);
    expect(orders.nodes.some((o) => o.state === "not_paid")).toBe(true);
    expect(new Set(orders.nodes.flatMap((o) => o.lineItems.map((l) => l.itemType)))).toEqual(
      new Set(["CurriculumPlan", "MembershipPlan", "Ticket", "DigitalProduct"]),
    );
    const events = viewer.eventRegistrations as {
      nodes: { state: string; event: { startTime: string; isAllDay: boolean; url: string | null; location: string | null } }[];
    };
    expect(events.nodes.some((r) => r.state === "cancelled")).toBe(true);
    expect(events.nodes.some((r) => r.event.isAllDay)).toBe(true);
    expect(events.nodes.some((r) => r.event.url !== null)).toBe(true);
    expect(events.nodes.some((r) => r.event.location !== null)).toBe(true);
    expect(events.nodes.some((r) => Date.parse(r.event.startTime) > now)).toBe(true);
    expect(events.nodes.some((r) => Date.parse(r.event.startTime) < now)).toBe(true);
  });

  it("serves the course cover and the lecture page a Resume link points at", async () => {
    const response = await graphql(
      sandbox,
      mayaToken,
      "{ viewer { enrolledCourses(first: 2) { nodes { slug imageUrl lastWatchedLecture { lectureId positionSeconds title } } } } }",
    );
    const node = (response.body.data as { viewer: { enrolledCourses: { nodes: Enrollment[] } } }).viewer.enrolledCourses.nodes[1];
    const cover = await fetch(node?.imageUrl ?? "");
    expect(cover.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const lecture = node?.lastWatchedLecture;
    const page = await fetch(`${sandbox.url}/courses/${node?.slug}/lectures/${lecture?.lectureId}?t=${lecture?.positionSeconds}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(lecture?.title ?? "missing");
    expect(text).toContain("Resuming at 1:02:05");
  });

  it("gives Ben empty connections", async () => {
    const ben = await obtainTokens(sandbox, { email: "ben@example.com" });
    const response = await graphql(
      sandbox,
      ben.accessToken,
      "{ viewer { enrolledCourses { totalCount nodes { slug } pageInfo { hasNextPage endCursor } } " +
        "orders { totalCount } eventRegistrations { totalCount } } }",
    );
    expect(response.body.data).toEqual({
      viewer: {
        enrolledCourses: { totalCount: 0, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
        orders: { totalCount: 0 },
        eventRegistrations: { totalCount: 0 },
      },
    });
  });

  it("pages through Kai's 130 enrollments with opaque cursors", async () => {
    const kai = await obtainTokens(sandbox, { email: "kai@example.com" });
    const slugs: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const response = await graphql(
        sandbox,
        kai.accessToken,
        "query Page($after: String) { viewer { enrolledCourses(first: 50, after: $after) { " +
          "totalCount pageInfo { hasNextPage endCursor } nodes { slug } } } }",
        { after },
      );
      expect(response.status).toBe(200);
      const connection = (
        response.body.data as {
          viewer: {
            enrolledCourses: {
              totalCount: number;
              pageInfo: { hasNextPage: boolean; endCursor: string | null };
              nodes: { slug: string }[];
            };
          };
        }
      ).viewer.enrolledCourses;
      expect(connection.totalCount).toBe(130);
      slugs.push(...connection.nodes.map((n) => n.slug));
      pages += 1;
      if (!connection.pageInfo.hasNextPage) break;
      expect(connection.pageInfo.endCursor).not.toMatch(/^\d+$/);
      after = connection.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(slugs).toHaveLength(130);
    expect(new Set(slugs).size).toBe(130);
  });

  it("reports first above the cap of 100, or below 1, as a GraphQL error naming the cap", async () => {
    for (const first of [101, 0, -5]) {
      const response = await graphql(sandbox, mayaToken, `{ viewer { enrolledCourses(first: ${first}) { totalCount } } }`);
      expect(response.body.errors?.[0]?.message).toBe("first must be between 1 and 100");
      expect(response.body.data).toBeNull();
    }
    const ok = await graphql(sandbox, mayaToken, "{ viewer { enrolledCourses(first: 100) { totalCount } } }");
    expect(ok.body.errors).toBeUndefined();
  });

  it("refuses a forged cursor", async () => {
    const response = await graphql(sandbox, mayaToken, '{ viewer { orders(after: "garbage") { totalCount } } }');
    expect(response.body.errors?.[0]?.message).toMatch(/cursor/);
  });

  it("reports unknown fields as validation errors", async () => {
    const response = await graphql(sandbox, mayaToken, "{ viewer { salary } }");
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/salary/);
  });
});

describe("Account API: access", () => {
  it("answers no token with 401 invalid_token and resource_metadata", async () => {
    const response = await graphql(sandbox, undefined, "{ viewer { id } }");
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("invalid_token");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('Bearer error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${sandbox.url}/.well-known/oauth-protected-resource"`);
  });

  it("answers a revoked token with 401", async () => {
    const tokens = await obtainTokens(sandbox);
    expect((await graphql(sandbox, tokens.accessToken, "{ viewer { id } }")).status).toBe(200);
    await postForm(`${sandbox.url}/api/oauth/revoke`, {
      token: tokens.accessToken,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    });
    const response = await graphql(sandbox, tokens.accessToken, "{ viewer { id } }");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
  });

  it("answers a token bound to another origin with 401 and resource_metadata", async () => {
    const foreign = await obtainTokens(sandbox, { resource: SISTER });
    // The token is otherwise valid: UserInfo at the authorization server accepts it.
    expect((await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${foreign.accessToken}` } })).status).toBe(
      200,
    );
    const response = await graphql(sandbox, foreign.accessToken, "{ viewer { id } }");
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("invalid_token");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${sandbox.url}/.well-known/oauth-protected-resource"`);
  });

  it("answers a token without account:read with 403 insufficient_scope", async () => {
    const tokens = await obtainTokens(sandbox, { scope: "openid profile email" });
    const response = await graphql(sandbox, tokens.accessToken, "{ viewer { id } }");
    expect(response.status).toBe(403);
    expect(response.body.error).toBe("insufficient_scope");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="account:read"');
    expect(challenge).toContain("resource_metadata=");
  });

  it("answers a token narrowed (by refresh) to drop account:read with 403", async () => {
    const tokens = await obtainTokens(sandbox);
    const narrowed = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: tokens.refreshToken,
      scope: "openid",
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    });
    expect((await graphql(sandbox, String(narrowed.body.access_token), "{ viewer { id } }")).status).toBe(403);
  });

  it("requires Content-Type application/json and a query string", async () => {
    const asText = await fetch(`${sandbox.url}/account/graphql`, {
      method: "POST",
      headers: { "content-type": "text/plain", authorization: `Bearer ${mayaToken}` },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    expect(asText.status).toBe(415);
    const noQuery = await fetch(`${sandbox.url}/account/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${mayaToken}` },
      body: JSON.stringify({ variables: {} }),
    });
    expect(noQuery.status).toBe(400);
    const get = await fetch(`${sandbox.url}/account/graphql?query={viewer{id}}`, { headers: { authorization: `Bearer ${mayaToken}` } });
    expect(get.status).toBe(405);
  });
});
