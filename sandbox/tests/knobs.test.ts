import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SITE_TIME_ZONE, SITE_UTC_OFFSET_MINUTES } from "../data/account";
import { loadSandboxConfig, SandboxConfigError } from "../config";
import { parseFailureList, type FailureSpec, type GraphqlServer } from "../knobs";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { postSandboxControl } from "../testing";
import { graphql, obtainTokens, postForm, refreshTokens } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setKnobs({
    ...sandbox.state.initialKnobs,
    failures: {
      discovery: null,
      jwks: null,
      authorize: null,
      token: null,
      userinfo: null,
      revoke: null,
      introspect: null,
      graphql: null,
      register: null,
    },
  });
});

describe("knobs", () => {
  it("adds latency to every answer", async () => {
    // The very first answer is slow (cold code paths): not a baseline.
    await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    const started = performance.now();
    await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    const baseline = performance.now() - started;
    sandbox.setKnobs({ latencyMs: 150 });
    const slowStart = performance.now();
    await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    const slow = performance.now() - slowStart;
    expect(slow).toBeGreaterThanOrEqual(145);
    expect(slow - baseline).toBeGreaterThan(100);
  });

  it("injects an HTTP status with a JSON error body", async () => {
    sandbox.setKnobs({ failures: { discovery: { mode: "status", status: 503 } } });
    const response = await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: "temporarily_unavailable" });
    // Other endpoints are unaffected.
    expect((await fetch(`${sandbox.url}/.well-known/jwks.json`)).status).toBe(200);
  });

  it("injects a status with the OAuth error code a real site chose for it, and refuses one that is no code", async () => {
    sandbox.setKnobs({ failures: { token: { mode: "status", status: 429, error: "invalid_request" } } });
    const response = await fetch(`${sandbox.url}/api/oauth/token`, { method: "POST" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
    expect(() => sandbox.setKnobs({ failures: { token: { mode: "status", status: 429, error: 'say "hi"' } } })).toThrow();
  });

  it("injects the Retry-After a site sends with a status: seconds, a date, none, or one of neither form", async () => {
    const retryAfterOf = async (retryAfter: string | null | undefined, status = 429) => {
      sandbox.setKnobs({ failures: { graphql: { mode: "status", status, ...(retryAfter === undefined ? {} : { retryAfter }) } } });
      const response = await fetch(`${sandbox.url}/account/graphql`, { method: "POST" });
      expect(response.status).toBe(status);
      return response.headers.get("retry-after");
    };
    expect(await retryAfterOf(undefined)).toBe("1");
    expect(await retryAfterOf(undefined, 500)).toBeNull();
    expect(await retryAfterOf("30")).toBe("30");
    expect(await retryAfterOf("Sun, 06 Dec 2026 12:02:00 GMT")).toBe("Sun, 06 Dec 2026 12:02:00 GMT");
    expect(await retryAfterOf("soon", 403)).toBe("soon");
    expect(await retryAfterOf(null)).toBeNull();
    expect(() => sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 429, retryAfter: "1\r\nX: y" } } })).toThrow();
    sandbox.setKnobs({ failures: { graphql: null } });
  });

  it("sends the rate-limit headers a site sends with a status (GitHub's, the IETF draft's), never in place of its own", async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 120);
    sandbox.setKnobs({
      failures: {
        graphql: { mode: "status", status: 403, retryAfter: null, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset } },
      },
    });
    const response = await fetch(`${sandbox.url}/account/graphql`, { method: "POST" });
    expect(response.status).toBe(403);
    expect([response.headers.get("x-ratelimit-remaining"), response.headers.get("x-ratelimit-reset")]).toEqual(["0", reset]);
    expect(response.headers.get("retry-after")).toBeNull();
    // The sandbox's own Cache-Control stays: a knob adds headers, it does not replace the answer's.
    sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 429, headers: { "cache-control": "public" } } } });
    expect((await fetch(`${sandbox.url}/account/graphql`, { method: "POST" })).headers.get("cache-control")).toBe("no-store");
    for (const headers of [
      { "bad name": "x" },
      { "x-ok": "line\r\nX: y" },
      Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x-${i}`, "1"])),
    ]) {
      expect(() => sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 429, headers } } })).toThrow();
    }
    sandbox.setKnobs({ failures: { graphql: null } });
  });

  it("answers the Account API's 'too many requests' at 200 as Shopify and GitHub do, and only there", async () => {
    const throttled = async (spec: FailureSpec) => {
      sandbox.setKnobs({ failures: { graphql: spec } });
      const response = await fetch(`${sandbox.url}/account/graphql`, { method: "POST" });
      expect(response.status).toBe(200);
      return { retryAfter: response.headers.get("retry-after"), body: (await response.json()) as unknown };
    };
    expect(await throttled({ mode: "throttled" })).toEqual({
      retryAfter: null,
      body: { errors: [{ message: expect.stringMatching(/^Throttled/) as string, extensions: { code: "THROTTLED" } }] },
    });
    expect(await throttled({ mode: "throttled", as: "error_type", retryAfter: "5" })).toEqual({
      retryAfter: "5",
      body: { errors: [{ type: "RATE_LIMITED", message: expect.stringMatching(/^Throttled/) as string }] },
    });
    expect(() => sandbox.setKnobs({ failures: { token: { mode: "throttled" } } })).toThrow(/only the graphql endpoint/);
    expect(parseFailureList("graphql=throttledx2")).toEqual({ ok: true, failures: { graphql: { mode: "throttled", times: 2 } } });
    expect(parseFailureList("token=throttled")).toEqual({
      ok: false,
      problems: ['"token=throttled": only the graphql endpoint answers throttled'],
    });
    sandbox.setKnobs({ failures: { graphql: null } });
  });

  it("fails the covers alone, as a site's image host can, and logs their requests as covers", async () => {
    sandbox.setKnobs({ failures: { covers: { mode: "status", status: 404 } } });
    sandbox.resetRequests();
    const cover = await fetch(`${sandbox.url}/covers/intermediate-typescript.svg`);
    expect(cover.status).toBe(404);
    expect(cover.headers.get("content-type")).not.toMatch(/^image\//);
    expect((await fetch(`${sandbox.url}/courses/intermediate-typescript`)).status).toBe(200);
    expect(sandbox.requests().map(({ endpoint }) => endpoint)).toEqual(["covers", "page"]);
    sandbox.setKnobs({ failures: { covers: null } });
    expect((await fetch(`${sandbox.url}/covers/intermediate-typescript.svg`)).headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  });

  it("injects a malformed (non-JSON) 200 body", async () => {
    sandbox.setKnobs({ failures: { jwks: { mode: "malformed" } } });
    const response = await fetch(`${sandbox.url}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it("injects a 302 redirect", async () => {
    sandbox.setKnobs({ failures: { userinfo: { mode: "redirect" } } });
    const response = await fetch(`${sandbox.url}/api/oauth/userinfo`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${sandbox.url}/maintenance`);
  });

  it("limits an injected failure to the next N requests", async () => {
    sandbox.setKnobs({ failures: { token: { mode: "status", status: 500, times: 2 } } });
    const tokens = await obtainTokens(sandbox).catch(() => undefined);
    expect(tokens).toBeUndefined(); // first token request failed
    const second = await postForm(`${sandbox.url}/api/oauth/token`, { grant_type: "refresh_token" });
    expect(second.status).toBe(500);
    const third = await postForm(`${sandbox.url}/api/oauth/token`, { grant_type: "refresh_token" });
    expect(third.status).toBe(401); // the real endpoint again: no client_id
    expect(sandbox.state.knobs.failures.token).toBeUndefined();
  });

  it("pads access tokens to ~2 KB", async () => {
    sandbox.setKnobs({ accessTokenPadding: 2000 });
    const tokens = await obtainTokens(sandbox);
    expect(tokens.accessToken.length).toBeGreaterThanOrEqual(2000);
    expect(tokens.accessToken).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await graphql(sandbox, tokens.accessToken, "{ viewer { id } }")).status).toBe(200);
  });

  it("removes schema fields named by graphqlMissingFields, failing validation", async () => {
    const tokens = await obtainTokens(sandbox);
    sandbox.setKnobs({ graphqlMissingFields: ["orders", "EnrolledCourse.completionPercentage"] });
    const orders = await graphql(sandbox, tokens.accessToken, "{ viewer { orders { totalCount } } }");
    expect(orders.status).toBe(400);
    expect(orders.body.errors?.[0]?.message).toMatch(/orders/);
    const completion = await graphql(sandbox, tokens.accessToken, "{ viewer { enrolledCourses { nodes { completionPercentage } } } }");
    expect(completion.status).toBe(400);
    const fine = await graphql(
      sandbox,
      tokens.accessToken,
      "{ viewer { enrolledCourses { totalCount } eventRegistrations { totalCount } } }",
    );
    expect(fine.status).toBe(200);
  });

  it("fails the resolvers named by graphqlFieldErrors: a partial result, as the GraphQL spec handles field errors", async () => {
    const tokens = await obtainTokens(sandbox);
    sandbox.setKnobs({ graphqlFieldErrors: ["EnrolledCourse.name", "Order.lineItems"] });
    const courses = await graphql(sandbox, tokens.accessToken, "{ viewer { enrolledCourses(first: 2) { nodes { slug name } } } }");
    expect(courses.status).toBe(200);
    // A nullable field: null where it failed, the rest answered, one error per item naming its path.
    const nodes = (courses.body.data as { viewer: { enrolledCourses: { nodes: { slug: string; name: unknown }[] } } }).viewer
      .enrolledCourses.nodes;
    expect(nodes).toHaveLength(2);
    expect(nodes.every((node) => node.slug !== "" && node.name === null)).toBe(true);
    expect(courses.body.errors?.map((error) => error.path)).toEqual([
      ["viewer", "enrolledCourses", "nodes", 0, "name"],
      ["viewer", "enrolledCourses", "nodes", 1, "name"],
    ]);
    expect(courses.body.errors?.[0]?.message).toBe("Internal server error");
    // A non-null field: its null reaches the nearest nullable parent, here the whole answer.
    const orders = await graphql(sandbox, tokens.accessToken, "{ viewer { orders(first: 1) { nodes { tradeNo lineItems { name } } } } }");
    expect(orders.status).toBe(200);
    expect(orders.body.data).toBeNull();
    expect(orders.body.errors?.[0]?.path).toEqual(["viewer", "orders", "nodes", 0, "lineItems"]);
  });

  it("answers the items named by graphqlUnavailableItems as null in their list, with an error naming each, the rest as usual", async () => {
    const tokens = await obtainTokens(sandbox);
    const query = "{ viewer { enrolledCourses(first: 3) { totalCount nodes { slug name } } orders(first: 2) { nodes { id tradeNo } } } }";
    const whole = await graphql(sandbox, tokens.accessToken, query);
    type Lists = {
      viewer: { enrolledCourses: { totalCount: number; nodes: ({ slug: string } | null)[] }; orders: { nodes: ({ id: string } | null)[] } };
    };
    const { enrolledCourses, orders } = (whole.body.data as Lists).viewer;
    const [missingCourse, missingOrder] = [enrolledCourses.nodes[1]!.slug, orders.nodes[0]!.id];
    sandbox.setKnobs({ graphqlUnavailableItems: [missingCourse, missingOrder] });
    const partial = await graphql(sandbox, tokens.accessToken, query);
    expect(partial.status).toBe(200);
    const lists = (partial.body.data as Lists).viewer;
    expect(lists.enrolledCourses.nodes.map((node) => node?.slug ?? null)).toEqual([
      enrolledCourses.nodes[0]!.slug,
      null,
      enrolledCourses.nodes[2]!.slug,
    ]);
    expect(lists.enrolledCourses.totalCount).toBe(enrolledCourses.totalCount);
    expect(lists.orders.nodes.map((node) => node?.id ?? null)).toEqual([null, orders.nodes[1]!.id]);
    expect(partial.body.errors?.map((error) => error.path)).toEqual([
      ["viewer", "enrolledCourses", "nodes", 1, "slug"],
      ["viewer", "orders", "nodes", 0, "id"],
    ]);
    // The lists' items are nullable in the schema while the knob names any: as a site whose schema says so.
    const schema = await graphql(
      sandbox,
      tokens.accessToken,
      '{ __type(name: "OrderConnection") { fields { name type { kind ofType { kind ofType { kind } } } } } }',
    );
    const nodesField = (schema.body.data as { __type: { fields: { name: string; type: unknown }[] } }).__type.fields.find(
      (field) => field.name === "nodes",
    );
    expect(nodesField?.type).toEqual({ kind: "NON_NULL", ofType: { kind: "LIST", ofType: { kind: "OBJECT" } } });
  });

  it("caps `first` at maxPageSize (default 100) with an error naming the maximum", async () => {
    const tokens = await obtainTokens(sandbox, { email: "kai@example.com" });
    const page = (first: number) =>
      graphql(sandbox, tokens.accessToken, "query($first: Int!) { viewer { enrolledCourses(first: $first) { nodes { slug } } } }", {
        first,
      });
    expect((await page(100)).body.errors).toBeUndefined();
    expect((await page(101)).body.errors?.[0]?.message).toBe("first must be between 1 and 100");
    sandbox.setKnobs({ maxPageSize: 10 });
    const refused = await page(11);
    expect(refused.status).toBe(200);
    expect(refused.body.errors?.[0]).toMatchObject({ message: "first must be between 1 and 10", extensions: { maxPageSize: 10 } });
    expect(((await page(10)).body.data as { viewer: { enrolledCourses: { nodes: unknown[] } } }).viewer.enrolledCourses.nodes).toHaveLength(
      10,
    );
  });

  it("refuses a cursor older than cursorTtlSeconds, by the sandbox clock, as it refuses one it cannot read", async () => {
    const tokens = await obtainTokens(sandbox, { email: "kai@example.com" });
    type Slugs = { viewer: { enrolledCourses: { nodes: { slug: string }[]; pageInfo: { endCursor: string } } } };
    const page = (after: string | null) =>
      graphql(
        sandbox,
        tokens.accessToken,
        "query($after: String) { viewer { enrolledCourses(first: 2, after: $after) { nodes { slug } pageInfo { endCursor } } } }",
        { after },
      );
    const cursorOf = async () => ((await page(null)).body.data as Slugs).viewer.enrolledCourses.pageInfo.endCursor;
    const unreadable = (await page("abc")).body.errors?.[0];
    expect(unreadable).toMatchObject({ message: "after is not a valid cursor", extensions: { code: "BAD_USER_INPUT" } });

    // Off (the default): a cursor is good for ever.
    const lasting = await cursorOf();
    sandbox.setKnobs({ clockOffsetMs: 365 * 24 * 3600 * 1000 });
    expect((await page(lasting)).body.errors).toBeUndefined();

    sandbox.setKnobs({ clockOffsetMs: 0, cursorTtlSeconds: 600 });
    const fresh = await cursorOf();
    const next = (await page(fresh)).body.data as Slugs;
    expect(next.viewer.enrolledCourses.nodes).toHaveLength(2);
    sandbox.setKnobs({ clockOffsetMs: 599_000 });
    expect((await page(fresh)).body.errors).toBeUndefined();
    sandbox.setKnobs({ clockOffsetMs: 601_000 });
    const expired = await page(fresh);
    expect(expired.status).toBe(200);
    expect(expired.body.errors?.[0]).toEqual(unreadable);
    // A cursor handed out now, by the moved clock, is good again.
    const renewed = (await page(await cursorOf())).body.data as Slugs;
    expect(renewed.viewer.enrolledCourses.nodes.map((node) => node.slug)).toEqual(
      next.viewer.enrolledCourses.nodes.map((node) => node.slug),
    );
  });

  it("pads cursors to cursorMinLength characters, and takes them back", async () => {
    const tokens = await obtainTokens(sandbox, { email: "kai@example.com" });
    type Slugs = { viewer: { enrolledCourses: { nodes: { slug: string }[]; pageInfo: { endCursor: string } } } };
    const page = async (after: string | null) =>
      (
        await graphql(
          sandbox,
          tokens.accessToken,
          "query($after: String) { viewer { enrolledCourses(first: 2, after: $after) { nodes { slug } pageInfo { endCursor } } } }",
          { after },
        )
      ).body.data as Slugs;
    const short = (await page(null)).viewer.enrolledCourses.pageInfo.endCursor;
    expect(short.length).toBeLessThan(60);
    sandbox.setKnobs({ cursorMinLength: 1500 });
    const long = (await page(null)).viewer.enrolledCourses.pageInfo.endCursor;
    expect(long.length).toBeGreaterThanOrEqual(1500);
    expect(long.length).toBeLessThan(1510);
    expect((await page(long)).viewer.enrolledCourses.nodes).toEqual((await page(short)).viewer.enrolledCourses.nodes);
  });

  it("puts newOrders at the top of the member's orders, so a cursor handed out before points one item earlier", async () => {
    const tokens = await obtainTokens(sandbox, { email: "maya@example.com" });
    type Orders = { viewer: { orders: { totalCount: number; nodes: { tradeNo: string }[]; pageInfo: { endCursor: string } } } };
    const page = async (first: number, after: string | null) =>
      (
        (
          await graphql(
            sandbox,
            tokens.accessToken,
            "query($first: Int!, $after: String) { viewer { orders(first: $first, after: $after) { " +
              "totalCount nodes { tradeNo } pageInfo { endCursor } } } }",
            { first, after },
          )
        ).body.data as Orders
      ).viewer.orders;
    const before = await page(2, null);
    sandbox.setKnobs({ newOrders: 1 });
    const after = await page(2, before.pageInfo.endCursor);
    expect(after.totalCount).toBe(before.totalCount + 1);
    // The item at the seam comes again.
    expect(after.nodes[0]?.tradeNo).toBe(before.nodes[1]?.tradeNo);
    expect((await page(1, null)).nodes[0]?.tradeNo).toMatch(/NEW1$/);
  });

  it("gives each member extraEnrollments beyond their own, after them, each a course of its own", async () => {
    const tokens = await obtainTokens(sandbox, { email: "kai@example.com" });
    type Courses = {
      viewer: { enrolledCourses: { nodes: { slug: string; hasLifetimeAccess: boolean }[]; pageInfo: { endCursor: string | null } } };
    };
    /** Every enrollment, page after page. */
    const all = async () => {
      const nodes: { slug: string; hasLifetimeAccess: boolean }[] = [];
      for (let after: string | null = null; ;) {
        const { body } = await graphql(
          sandbox,
          tokens.accessToken,
          "query($after: String) { viewer { enrolledCourses(first: 100, after: $after) { " +
            "nodes { slug hasLifetimeAccess } pageInfo { endCursor } } } }",
          { after },
        );
        const page = (body.data as Courses).viewer.enrolledCourses;
        nodes.push(...page.nodes);
        if (page.pageInfo.endCursor === null || page.nodes.length === 0) return nodes;
        after = page.pageInfo.endCursor;
      }
    };
    const own = await all();
    sandbox.setKnobs({ extraEnrollments: 600 });
    const withExtra = await all();
    expect(withExtra).toHaveLength(own.length + 600);
    expect(withExtra.slice(0, own.length)).toEqual(own);
    expect(new Set(withExtra.map((node) => node.slug)).size).toBe(withExtra.length);
    expect(withExtra.slice(own.length).every((node) => node.hasLifetimeAccess)).toBe(true);
  });

  it("serves the extraEnrollments' courses as the site's own: a cover and a course page, only while the knob gives them", async () => {
    const cover = () => fetch(`${sandbox.url}/covers/elective-3.svg`);
    expect((await cover()).status).toBe(404);
    sandbox.setKnobs({ extraEnrollments: 3 });
    const answer = await cover();
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "image/svg+xml; charset=utf-8"]);
    expect(await (await fetch(`${sandbox.url}/courses/elective-3`)).text()).toContain("<h1>Elective 3</h1>");
    expect((await fetch(`${sandbox.url}/courses/elective-4`)).status).toBe(404);
  });

  it("points the covers' imageUrl at coverOrigin (a CDN) or gives it as a path on the site (relativeCoverUrls)", async () => {
    const tokens = await obtainTokens(sandbox);
    const imageUrls = async () => {
      const { body } = await graphql(sandbox, tokens.accessToken, "{ viewer { enrolledCourses(first: 3) { nodes { slug imageUrl } } } }");
      return (body.data as { viewer: { enrolledCourses: { nodes: { slug: string; imageUrl: string }[] } } }).viewer.enrolledCourses.nodes;
    };
    const cdn = sandbox.url.replace("127.0.0.1", "localhost");
    expect(new URL(cdn).origin).not.toBe(new URL(sandbox.url).origin);
    sandbox.setKnobs({ coverOrigin: cdn });
    const nodes = await imageUrls();
    expect(nodes.map(({ imageUrl }) => imageUrl)).toEqual(nodes.map(({ slug }) => `${cdn}/covers/${slug}.svg`));
    expect((await fetch(nodes[0]!.imageUrl)).headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(() => sandbox.setKnobs({ coverOrigin: `${cdn}/covers` })).toThrow();
    sandbox.setKnobs({ coverOrigin: "" });
    expect((await imageUrls())[0]!.imageUrl).toBe(`${sandbox.url}/covers/${nodes[0]!.slug}.svg`);
    sandbox.setKnobs({ relativeCoverUrls: true });
    expect((await imageUrls())[0]!.imageUrl).toBe(`/covers/${nodes[0]!.slug}.svg`);
  });

  it("writes the DateTimes' offset +0800 (dateTimesBasicOffset), or gives no offset at all (dateTimesWithoutOffset)", async () => {
    const tokens = await obtainTokens(sandbox);
    const startTimes = async () => {
      const { body } = await graphql(
        sandbox,
        tokens.accessToken,
        "{ viewer { eventRegistrations(first: 5) { nodes { event { startTime } } } } }",
      );
      type Nodes = { viewer: { eventRegistrations: { nodes: { event: { startTime: string } }[] } } };
      return (body.data as Nodes).viewer.eventRegistrations.nodes.map(({ event }) => event.startTime);
    };
    const withOffset = await startTimes();
    expect(withOffset.length).toBeGreaterThan(0);
    for (const value of withOffset) expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    sandbox.setKnobs({ dateTimesBasicOffset: true });
    expect(await startTimes()).toEqual(withOffset.map((value) => value.replace(/\+08:00$/, "+0800")));
    sandbox.setKnobs({ dateTimesBasicOffset: false, dateTimesWithoutOffset: true });
    expect(await startTimes()).toEqual(withOffset.map((value) => value.slice(0, -"+08:00".length)));
    // The zone a dashboard is told (scripts/start.ts sets it for the sandbox) has that offset all year.
    for (const month of [0, 6]) {
      const offset = new Intl.DateTimeFormat("en", { timeZone: SITE_TIME_ZONE, timeZoneName: "longOffset" })
        .formatToParts(new Date(Date.UTC(2026, month, 15)))
        .find((part) => part.type === "timeZoneName")?.value;
      expect(offset).toBe(`GMT+${String(SITE_UTC_OFFSET_MINUTES / 60).padStart(2, "0")}:00`);
    }
  });

  it("serves only the seed's fields when graphqlSeedFieldsOnly is on", async () => {
    const tokens = await obtainTokens(sandbox);
    sandbox.setKnobs({ graphqlSeedFieldsOnly: true });
    const seed = await graphql(
      sandbox,
      tokens.accessToken,
      "{ viewer { id email enrolledCourses(first: 5) { nodes { slug expireDate hasLifetimeAccess " +
        "lastWatchedLecture { lectureId positionSeconds } } } } }",
    );
    expect(seed.status).toBe(200);
    for (const field of [
      "name",
      "orders { nodes { id } }",
      "eventRegistrations { nodes { id } }",
      "enrolledCourses { totalCount }",
      "enrolledCourses { pageInfo { hasNextPage } }",
      "enrolledCourses { nodes { imageUrl } }",
      "enrolledCourses { nodes { lastWatchedLecture { title } } }",
    ]) {
      const refused = await graphql(sandbox, tokens.accessToken, `{ viewer { ${field} } }`);
      expect(refused.status, field).toBe(400);
      expect(refused.body.errors?.[0]?.message, field).toMatch(/^Cannot query field "\w+" on type "\w+"/);
    }
  });

  it.each<[GraphqlServer, number, RegExp, Record<string, unknown> | undefined]>([
    ["graphql-js", 400, /^Cannot query field "imageUrl" on type "EnrolledCourse"\./, undefined],
    [
      "graphql-ruby",
      200,
      /^Field 'imageUrl' doesn't exist on type 'EnrolledCourse'$/,
      { code: "undefinedField", typeName: "EnrolledCourse", fieldName: "imageUrl" },
    ],
    [
      "graphql-java",
      200,
      /^Validation error \(FieldUndefined@\[imageUrl\]\) : Field 'imageUrl' in type 'EnrolledCourse' is undefined$/,
      { classification: "ValidationError" },
    ],
    [
      "hot-chocolate",
      400,
      /^The field `imageUrl` does not exist on the type `EnrolledCourse`\.$/,
      { type: "EnrolledCourse", field: "imageUrl", responseName: "imageUrl" },
    ],
  ])(
    "words a field the schema lacks as %s does, and keeps other validation errors as they are",
    async (graphqlServer, status, message, extensions) => {
      const tokens = await obtainTokens(sandbox);
      sandbox.setKnobs({ graphqlMissingFields: ["EnrolledCourse.imageUrl"], graphqlServer });
      const refused = await graphql(sandbox, tokens.accessToken, "{ viewer { enrolledCourses(first: 1) { nodes { imageUrl } } } }");
      expect(refused.status).toBe(status);
      expect(refused.body.errors?.[0]?.message).toMatch(message);
      expect(refused.body.errors?.[0]?.extensions).toEqual(extensions);
      const other = await graphql(sandbox, tokens.accessToken, "{ viewer { enrolledCourses(first: 1, size: 2) { nodes { slug } } } }");
      expect(other.body.errors?.[0]?.message).toMatch(/^Unknown argument "size"/);
      sandbox.setKnobs({ graphqlMissingFields: [], graphqlServer: "graphql-js" });
    },
  );

  it.each<[GraphqlServer, number, RegExp]>([
    ["graphql-js", 400, /^The query exceeds the maximum complexity of 100\. Actual complexity is 752$/],
    ["graphql-ruby", 200, /^Query has complexity of 752, which exceeds max complexity of 100$/],
    ["graphql-java", 200, /^maximum query complexity exceeded 752 > 100$/],
    ["hot-chocolate", 200, /^The maximum allowed field cost was exceeded\.$/],
  ])(
    "refuses a query over the cost limit as %s does, naming its cost; one within it is answered",
    async (graphqlServer, status, message) => {
      const tokens = await obtainTokens(sandbox);
      sandbox.setKnobs({ graphqlMaxCost: 100, graphqlServer });
      const connection = (first: number) =>
        `{ viewer { enrolledCourses(first: ${first}) { nodes { slug name expireDate hasLifetimeAccess imageUrl completionPercentage ` +
        "lastWatchedLecture { lectureId positionSeconds title } } pageInfo { hasNextPage endCursor } totalCount } } }";
      const refused = await graphql(sandbox, tokens.accessToken, connection(50));
      expect(refused.status).toBe(status);
      expect(refused.body.errors?.[0]?.message).toMatch(message);
      expect(refused.body.data).toBeUndefined();
      if (graphqlServer === "hot-chocolate")
        expect(refused.body.errors?.[0]?.extensions).toEqual({ code: "HC0047", fieldCost: 752, maxFieldCost: 100 });
      expect((await graphql(sandbox, tokens.accessToken, connection(5))).body.errors).toBeUndefined();
      sandbox.setKnobs({ graphqlMaxCost: 0, graphqlServer: "graphql-js" });
    },
  );

  it("writes amounts of money as decimal strings, as a Decimal scalar does, when asked", async () => {
    const tokens = await obtainTokens(sandbox);
    const query = "{ viewer { orders(first: 3) { nodes { amount refundedAmount lineItems { amount } } } } }";
    type Amounts = { viewer: { orders: { nodes: { amount: number; refundedAmount: number | null; lineItems: { amount: number }[] }[] } } };
    const plain = (await graphql(sandbox, tokens.accessToken, query)).body.data as Amounts;
    sandbox.setKnobs({ decimalAmounts: true });
    const written = (await graphql(sandbox, tokens.accessToken, query)).body.data;
    sandbox.setKnobs({ decimalAmounts: false });
    expect(plain.viewer.orders.nodes.length).toBeGreaterThan(0);
    expect(written).toEqual({
      viewer: {
        orders: {
          nodes: plain.viewer.orders.nodes.map((order) => ({
            amount: String(order.amount),
            refundedAmount: order.refundedAmount === null ? null : String(order.refundedAmount),
            lineItems: order.lineItems.map((item) => ({ amount: String(item.amount) })),
          })),
        },
      },
    });
  });

  it("pads an endpoint's answers to N bytes, still valid JSON, other endpoints untouched", async () => {
    const tokens = await obtainTokens(sandbox);
    sandbox.setKnobs({ answerPaddingBytes: { graphql: 3 * 1024 * 1024, discovery: 100_000 } });
    const response = await fetch(`${sandbox.url}/account/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens.accessToken}` },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBe(3 * 1024 * 1024);
    expect(JSON.parse(text)).toMatchObject({ data: { viewer: { id: expect.any(String) as string } } });
    const discovery = await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).text();
    expect(discovery.length).toBe(100_000);
    expect((await (await fetch(`${sandbox.url}/.well-known/jwks.json`)).text()).length).toBeLessThan(10_000);
  });

  it("sets short access-token lifetimes", async () => {
    sandbox.setKnobs({ accessTokenTtlSeconds: 20 });
    const tokens = await obtainTokens(sandbox);
    expect(tokens.body.expires_in).toBe(20);
    const refreshed = await refreshTokens(sandbox, tokens.refreshToken);
    expect(refreshed.body.expires_in).toBe(20);
  });

  it("rejects invalid knob values", () => {
    expect(() => sandbox.setKnobs({ latencyMs: -1 })).toThrow();
    expect(() => sandbox.setKnobs({ foreignResources: ["not a url"] })).toThrow();
    expect(() => sandbox.setKnobs({ nonsense: true } as never)).toThrow();
  });

  it("logs requests with endpoint, grant_type and status", async () => {
    sandbox.resetRequests();
    const tokens = await obtainTokens(sandbox);
    await refreshTokens(sandbox, tokens.refreshToken);
    const log = sandbox.requests();
    expect(log.filter((entry) => entry.endpoint === "token" && entry.grantType === "refresh_token")).toHaveLength(1);
    expect(log.filter((entry) => entry.grantType === "authorization_code")).toEqual([
      expect.objectContaining({ method: "POST", path: "/api/oauth/token", status: 200 }),
    ]);
    sandbox.resetRequests();
    expect(sandbox.requests()).toEqual([]);
  });
});

describe("control endpoints", () => {
  it("are off by default", async () => {
    expect((await fetch(`${sandbox.url}/__sandbox/requests`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/__sandbox/knobs`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("merge knobs, expose the request log and reset when enabled", async () => {
    const controlled = await startSandbox({ port: 0, control: true });
    try {
      const set = await postSandboxControl(controlled.url, "/__sandbox/knobs", {
        failures: { graphql: { mode: "status", status: 502 } },
        latencyMs: 5,
      });
      expect(set.status).toBe(200);
      expect(await set.json()).toMatchObject({ latencyMs: 5, failures: { graphql: { mode: "status", status: 502 } } });
      expect((await fetch(`${controlled.url}/account/graphql`, { method: "POST" })).status).toBe(502);
      const bad = await postSandboxControl(controlled.url, "/__sandbox/knobs", { latencyMs: "slow" });
      expect(bad.status).toBe(400);
      const log = (await (await fetch(`${controlled.url}/__sandbox/requests`)).json()) as {
        endpoint: string;
        status: number;
        injectedFailure?: string;
      }[];
      expect(log).toEqual([expect.objectContaining({ endpoint: "graphql", status: 502, injectedFailure: "status" })]);
      expect((await postSandboxControl(controlled.url, "/__sandbox/reset")).status).toBe(200);
      expect(await (await fetch(`${controlled.url}/__sandbox/requests`)).json()).toEqual([]);
      expect((await fetch(`${controlled.url}/account/graphql`, { method: "POST" })).status).toBe(401);
    } finally {
      await controlled.close();
    }
  });
});

describe("control endpoints refuse cross-site requests (OWASP ASVS 5 V3.5)", () => {
  let controlled: RunningSandbox;
  beforeAll(async () => {
    controlled = await startSandbox({ port: 0, control: true });
  });
  afterAll(async () => controlled.close());

  it.each([
    ["a cross-site form", "application/x-www-form-urlencoded", "https://evil.example", "latencyMs=5000", 415],
    ["a same-origin form", "application/x-www-form-urlencoded", "self", "latencyMs=5000", 415],
    ["text/plain JSON (a simple request)", "text/plain", "https://evil.example", '{"latencyMs":5000}', 415],
    ["JSON from another origin", "application/json", "https://evil.example", '{"latencyMs":5000}', 403],
    ["JSON without an Origin", "application/json", null, '{"latencyMs":5000}', 403],
  ])("refuses %s and changes nothing", async (_name, contentType, origin, body, status) => {
    const headers: Record<string, string> = { "content-type": contentType };
    if (origin !== null) headers.origin = origin === "self" ? controlled.url : origin;
    for (const path of ["/__sandbox/knobs", "/__sandbox/reset"]) {
      const response = await fetch(`${controlled.url}${path}`, { method: "POST", headers, body });
      expect(response.status).toBe(status);
    }
    expect(controlled.state.knobs.latencyMs).toBe(0);
  });

  it("accepts JSON from its own origin", async () => {
    const response = await postSandboxControl(controlled.url, "/__sandbox/knobs", { latencyMs: 1 });
    expect(response.status).toBe(200);
    expect(controlled.state.knobs.latencyMs).toBe(1);
    expect((await postSandboxControl(controlled.url, "/__sandbox/reset")).status).toBe(200);
    expect(controlled.state.knobs.latencyMs).toBe(0);
  });
});

describe("the request log keeps only the newest entries", () => {
  it.each([3, 10])("keeps %i entries, numbered from the start", async (limit) => {
    const small = await startSandbox({ port: 0, requestLogLimit: limit });
    try {
      for (let i = 0; i < limit + 5; i += 1) await fetch(`${small.url}/.well-known/oauth-authorization-server`);
      const log = small.requests();
      expect(log).toHaveLength(limit);
      expect(log.map((entry) => entry.seq)).toEqual(Array.from({ length: limit }, (_, index) => index + 6));
    } finally {
      await small.close();
    }
  });
});

describe("config (environment)", () => {
  it("reads defaults from an empty environment", () => {
    const config = loadSandboxConfig({});
    expect(config).toMatchObject({ port: 4000, host: "127.0.0.1", options: { control: false, knobs: {} } });
  });

  it("reads every knob variable", () => {
    const config = loadSandboxConfig({
      SANDBOX_PORT: "0",
      SANDBOX_ISSUER: "http://localhost:4000",
      SANDBOX_DASHBOARD_REDIRECT_URIS: "http://localhost:3000/api/auth/callback, http://127.0.0.1:3000/api/auth/callback",
      SANDBOX_ACCESS_TOKEN_TTL: "20",
      SANDBOX_REFRESH_TOKEN_TTL: "600",
      SANDBOX_ID_TOKEN: "off",
      SANDBOX_LATENCY_MS: "20",
      SANDBOX_FAIL: "token=503,userinfo=malformed,graphql=redirectx2",
      SANDBOX_ACCESS_TOKEN_PADDING: "2000",
      SANDBOX_GRAPHQL_MISSING_FIELDS: "orders",
      SANDBOX_CURSOR_TTL: "600",
      SANDBOX_FOREIGN_RESOURCES: "https://sister.example.com",
      SANDBOX_CONTROL: "1",
      SANDBOX_REFRESH_REFUSAL_WITHOUT_BODY: "on",
      SANDBOX_REFRESH_WITHOUT_ROTATION: "on",
      SANDBOX_PARTIAL_CONSENT: "1",
      SANDBOX_OPENID_DISCOVERY_ONLY: "true",
      SANDBOX_LOCALIZED_SIGN_IN: "on",
      SANDBOX_PAR: "required",
      SANDBOX_DPOP: "offered",
      SANDBOX_DPOP_NONCE: "on",
      SANDBOX_DPOP_REVOCATION: "on",
      SANDBOX_ACCOUNT_API_TOKEN_REFUSAL: "graphql_200",
      SANDBOX_GRAPHQL_SERVER: "graphql-ruby",
      SANDBOX_GRAPHQL_MAX_COST: "2000",
      SANDBOX_DECIMAL_AMOUNTS: "on",
      SANDBOX_COMMA_SCOPES: "1",
      SANDBOX_CONTENT_CODING: "br",
    });
    expect(config.port).toBe(0);
    expect(config.options).toEqual({
      issuer: "http://localhost:4000",
      dashboardRedirectUris: ["http://localhost:3000/api/auth/callback", "http://127.0.0.1:3000/api/auth/callback"],
      control: true,
      knobs: {
        accessTokenTtlSeconds: 20,
        refreshTokenTtlSeconds: 600,
        idToken: false,
        latencyMs: 20,
        failures: { token: { mode: "status", status: 503 }, userinfo: { mode: "malformed" }, graphql: { mode: "redirect", times: 2 } },
        accessTokenPadding: 2000,
        graphqlMissingFields: ["orders"],
        cursorTtlSeconds: 600,
        foreignResources: ["https://sister.example.com"],
        refreshRefusalWithoutBody: true,
        refreshWithoutRotation: true,
        partialConsent: true,
        openIdDiscoveryOnly: true,
        localizedSignIn: true,
        par: "required",
        dpop: "offered",
        dpopNonce: true,
        dpopRevocation: true,
        accountApiTokenRefusal: "graphql_200",
        graphqlServer: "graphql-ruby",
        graphqlMaxCost: 2000,
        decimalAmounts: true,
        commaScopes: true,
        contentCoding: "br",
      },
    });
  });

  it("reads SANDBOX_CONTENT_CODING=off as no coding, and refuses a coding it cannot apply", () => {
    expect(loadSandboxConfig({ SANDBOX_CONTENT_CODING: "off" }).options.knobs).toEqual({ contentCoding: null });
    expect(() => loadSandboxConfig({ SANDBOX_CONTENT_CODING: "zstd" })).toThrow(/SANDBOX_CONTENT_CODING: must be one of gzip, br, off/);
  });

  it("reads the off values of the protocol variables, and refuses a mode that is not off, offered or required", () => {
    const off = loadSandboxConfig({ SANDBOX_PAR: "off", SANDBOX_DPOP: "off", SANDBOX_DPOP_NONCE: "off", SANDBOX_PARTIAL_CONSENT: "0" });
    expect(off.options.knobs).toEqual({ par: "off", dpop: "off", dpopNonce: false, partialConsent: false });
    let error: unknown;
    try {
      loadSandboxConfig({
        SANDBOX_PAR: "yes",
        SANDBOX_DPOP: "always",
        SANDBOX_DPOP_REVOCATION: "sometimes",
        SANDBOX_ACCOUNT_API_TOKEN_REFUSAL: "teapot",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxConfigError);
    const message = (error as SandboxConfigError).message;
    expect(message).toContain("SANDBOX_PAR: must be off, offered or required");
    expect(message).toContain("SANDBOX_DPOP: must be off, offered or required");
    expect(message).toContain("SANDBOX_DPOP_REVOCATION");
    expect(message).toContain("SANDBOX_ACCOUNT_API_TOKEN_REFUSAL: must be one of challenge, no_challenge, graphql_401, graphql_200");
  });

  it("starts a sandbox that requires PAR and DPoP with a nonce from the environment alone", async () => {
    const config = loadSandboxConfig({ SANDBOX_PORT: "0", SANDBOX_PAR: "required", SANDBOX_DPOP: "required", SANDBOX_DPOP_NONCE: "on" });
    const site = await startSandbox({ ...config.options, port: config.port });
    try {
      const metadata = (await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        require_pushed_authorization_requests: true,
        pushed_authorization_request_endpoint: `${site.url}/api/oauth/par`,
        dpop_signing_alg_values_supported: ["ES256"],
      });
      expect(site.state.knobs).toMatchObject({ par: "required", dpop: "required", dpopNonce: true });
    } finally {
      await site.close();
    }
  });

  it("names every bad variable at once", () => {
    let error: unknown;
    try {
      loadSandboxConfig({
        SANDBOX_PORT: "http",
        SANDBOX_LATENCY_MS: "-3",
        SANDBOX_FAIL: "tokn=503",
        SANDBOX_ISSUER: "http://x.test/path",
        SANDBOX_ID_TOKEN: "maybe",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SandboxConfigError);
    const message = (error as SandboxConfigError).message;
    for (const name of ["SANDBOX_PORT", "SANDBOX_LATENCY_MS", "SANDBOX_FAIL", "SANDBOX_ISSUER", "SANDBOX_ID_TOKEN"])
      expect(message).toContain(name);
  });
});
