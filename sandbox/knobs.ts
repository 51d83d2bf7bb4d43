/**
 * Test knobs of the sandbox: all off by default. Settable through `createSandbox({ knobs })`, through the
 * environment (see `config.ts`), and at runtime (`setKnobs` or `POST /__sandbox/knobs` when control is enabled).
 */
import { z } from "zod";

export const ENDPOINT_NAMES = [
  "discovery",
  "jwks",
  "authorize",
  "token",
  "userinfo",
  "revoke",
  "introspect",
  "graphql",
  "register",
  "mcp",
  "par",
  // A course's cover image (`/covers/<slug>.svg`), as a site's image CDN serves it.
  "covers",
] as const;

export type EndpointName = (typeof ENDPOINT_NAMES)[number];

/**
 * A `Retry-After` value as a site may send it (RFC 9110 section 10.2.3: seconds or an HTTP-date, or
 * anything else a site gets wrong), or null for none.
 */
const retryAfterSchema = z
  .string()
  .regex(/^[\x20-\x7E]{1,64}$/, "a header value of printable characters")
  .nullable()
  .optional();

/** How an injected failure answers. `times` limits it to the next N requests of that endpoint. */
export const failureSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("status"),
    status: z.number().int().min(400).max(599),
    /** The OAuth error code of the JSON body; by default `temporarily_unavailable` for 503, else `server_error`. */
    error: z
      .string()
      .regex(/^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/, "an OAuth error code (RFC 6749 section 5.2 characters)")
      .optional(),
    /** The `Retry-After` header; by default `1` for 429 and 503, none for other statuses. */
    retryAfter: retryAfterSchema,
    /**
     * More headers of the answer, as a site sends them: GitHub's rate-limit fields (`x-ratelimit-remaining`,
     * `x-ratelimit-reset`, seconds since the epoch) or the IETF draft's (`ratelimit-remaining`, `ratelimit-reset`).
     */
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "a header name"), z.string().regex(/^[\x20-\x7E]{0,128}$/, "a header value"))
      .refine((headers) => Object.keys(headers).length <= 8, "at most 8 headers")
      .optional(),
    times: z.number().int().positive().optional(),
  }),
  z.object({ mode: z.literal("malformed"), times: z.number().int().positive().optional() }),
  /**
   * A GraphQL site's "too many requests" at 200, as Shopify answers (`extensions.code: "THROTTLED"`) or
   * GitHub (`type: "RATE_LIMITED"` beside the message). Meant for the `graphql` endpoint.
   */
  z.object({
    mode: z.literal("throttled"),
    as: z.enum(["extensions_code", "error_type"]).optional(),
    /** The `Retry-After` header; none by default. */
    retryAfter: retryAfterSchema,
    times: z.number().int().positive().optional(),
  }),
  z.object({
    mode: z.literal("redirect"),
    /** Absolute URL or a path on the sandbox origin; default `/maintenance`. */
    location: z.string().min(1).optional(),
    times: z.number().int().positive().optional(),
  }),
]);

export type FailureSpec = z.infer<typeof failureSchema>;

export interface SandboxKnobs {
  /** Access token lifetime in seconds (default 7200 = 2 hours, as on the real platform). */
  accessTokenTtlSeconds: number;
  /** Refresh token lifetime in seconds (default 30 days). */
  refreshTokenTtlSeconds: number;
  /** When false, discovery omits `jwks_uri` and the alg list, and no id_token is issued. */
  idToken: boolean;
  /** Added latency, in milliseconds, before every answer (control endpoints excepted). */
  latencyMs: number;
  /** Failure injection per endpoint name. */
  failures: Partial<Record<EndpointName, FailureSpec>>;
  /** Extra random characters appended to each new access token (e.g. 2000 for a ~2 KB token). */
  accessTokenPadding: number;
  /**
   * Fields the Account API schema lacks, to mimic a site whose schema differs: `"orders"` (a Viewer field) or
   * `"Type.field"`, e.g. `"EnrolledCourse.completionPercentage"`. Queries using them fail validation.
   */
  graphqlMissingFields: string[];
  /**
   * Serve only the seed's Account API fields (`viewer { id email enrolledCourses(first, after) { nodes { slug
   * expireDate hasLifetimeAccess lastWatchedLecture { lectureId positionSeconds } } } }`): no names, images,
   * progress, lecture titles, orders, event registrations, `pageInfo` or `totalCount`.
   */
  graphqlSeedFieldsOnly: boolean;
  /**
   * Fields (`"Type.field"`) whose resolver fails, as a site's backend for one field can: GraphQL answers the
   * rest (a partial result), that field null with an error naming its path; a non-null field nulls its
   * parent instead, up to the nearest nullable one (GraphQL spec, "Handling Field Errors").
   */
  graphqlFieldErrors: string[];
  /**
   * Items of the Account API's lists the site cannot give (course slugs, order ids, registration ids), as
   * when a course was deleted under an enrollment: with any named, the lists' items are nullable in the
   * schema (`nodes: [EnrolledCourse]!`, as GitHub's are), and each named item comes back null with an
   * error naming its path (GraphQL spec, "Handling Field Errors"); the rest of the list as usual.
   */
  graphqlUnavailableItems: string[];
  /** The largest `first` the Account API accepts; above it the query fails with an error naming this maximum (default 100). */
  maxPageSize: number;
  /**
   * How long a cursor of the Account API stays good, in seconds (0, the default: for ever). Past it, `after`
   * is refused with the error of a cursor the site cannot read, as on a site whose cursors expire; the
   * sandbox clock (`clockOffsetMs`) decides a cursor's age.
   */
  cursorTtlSeconds: number;
  /**
   * Pads each Account API cursor to at least this many characters (0, the default: as short as it comes), as
   * on a site whose cursors are signed or encrypted and run to hundreds of characters.
   */
  cursorMinLength: number;
  /**
   * Orders each member placed since the seed (default 0), newest first: the top of the Orders list moves,
   * so a cursor handed out before now points one item earlier, as on a site that pages by position.
   */
  newOrders: number;
  /**
   * Enrollments each member has beyond the seed's (default 0), after their own: a member with an all-access
   * pass on a catalog larger than the sandbox's (each a course of its own, lifetime access, never started).
   */
  extraEnrollments: number;
  /**
   * The origin the Account API's `imageUrl`s point at (default "": the site's own), as on a site whose course
   * covers are on an image CDN of another host. The sandbox serves `/covers/` under any name it answers to.
   */
  coverOrigin: string;
  /** Gives `imageUrl` as a path on the site (`/covers/<slug>.svg`), as a site that serves its uploads itself may. */
  relativeCoverUrls: boolean;
  /**
   * The Account API's DateTimes as the site's wall-clock time with no offset (`2026-12-10T20:00:00`, meant in
   * Taipei), as a site may send them against the schema's "ISO 8601 with offset".
   */
  dateTimesWithoutOffset: boolean;
  /** The Account API's DateTimes with the offset written `+0800`, as PHP's DATE_ISO8601 writes it (RFC 3339: `+08:00`). */
  dateTimesBasicOffset: boolean;
  /**
   * Pads the answers of an endpoint to at least this many bytes (trailing whitespace, valid in JSON and
   * ignored in an event stream), streamed without holding the padding in memory.
   */
  answerPaddingBytes: Partial<Record<EndpointName, number>>;
  /**
   * Extra resource origins ("sister sites" of the same authorization server) accepted as `resource` at the
   * authorization and token endpoints. The Account API on this origin rejects tokens bound to them.
   */
  foreignResources: string[];
  /** Shifts the sandbox clock by this many milliseconds (lets another process expire codes and tokens). */
  clockOffsetMs: number;
  /**
   * Hosts (`host` or `host:port`) whose Client ID Metadata Documents the authorization endpoint fetches
   * (section 5.3 rule 5). Empty by default: no document is fetched.
   */
  cimdAllowedHosts: string[];
  /** Open registration: fetch Client ID Metadata Documents from any public HTTPS host. Off by default. */
  cimdOpenRegistration: boolean;
  /**
   * TEST ONLY: also accept `http://127.0.0.1:<port>/...` document URLs (still subject to the allowlist), so
   * tests can serve documents locally. Production documents are always HTTPS.
   */
  cimdAllowHttpLoopback: boolean;
  /**
   * OpenID Connect RP-Initiated Logout 1.0: discovery lists `end_session_endpoint` and the endpoint ends the
   * site's session. On by default; off mimics a site without it (the endpoint answers 404).
   */
  endSession: boolean;
  /**
   * A refused refresh is answered 400 with an empty body, as some providers do when the member withdrew the
   * app's access (RFC 6749 section 5.2 asks for a JSON error; not every provider sends one).
   */
  refreshRefusalWithoutBody: boolean;
  /**
   * A refresh renews the access token alone: its answer carries no `refresh_token` and the one presented stays
   * good (RFC 6749 section 6 lets the site choose), as providers that do not rotate refresh tokens answer.
   */
  refreshWithoutRotation: boolean;
  /**
   * The site writes `null` for a field it has no value for, where its documentation leaves the field out: the
   * token endpoint's `refresh_token` on a renewal that keeps the refresh token and `id_token` when none is issued;
   * the id_token's and UserInfo's `email`, `email_verified` and `name` when their scope was not granted; the
   * metadata's fields of what the site does not offer (`end_session_endpoint`, `jwks_uri` and
   * `id_token_signing_alg_values_supported`, PAR's, DPoP's, `ui_locales_supported`); the Account API's
   * `errors` and `extensions` when an answer has none. A site
   * whose JSON serializer writes every field of its response type answers so (Jackson's and System.Text.Json's
   * defaults, PHP's `json_encode` of an array).
   */
  writesNulls: boolean;
  /**
   * The token endpoint writes `expires_in` as a string of digits (`"7200"`), as Azure AD's v1.0 endpoint does and
   * a site whose serializer writes a lifetime its code holds as text (PHP's `json_encode` of a configured value).
   */
  expiresInAsText: boolean;
  /**
   * UserInfo lists a member's roles in another order than the id_token does (reversed), as a site that reads
   * them from its database without an order may: the same roles, the same member.
   */
  userInfoRolesReordered: boolean;
  /**
   * The id_token names the member by `sub` alone, without `email`, `name`, `org_id` or `roles`: with the
   * authorization code flow, OpenID Connect Core 5.4 returns the scopes' claims from UserInfo, and many
   * providers keep the id_token that thin.
   */
  idTokenSubjectOnly: boolean;
  /** The consent page lets the member untick scopes; the grant then holds only the ticked ones (RFC 6749 section 3.3). */
  partialConsent: boolean;
  /**
   * The sign-in, consent and sign-out pages speak English and 繁體中文: discovery lists them
   * (`ui_locales_supported`) and the pages follow a request's `ui_locales` (OpenID Connect Core 3.1.2.1,
   * RP-Initiated Logout 1.0 section 2). Off, the site is the documented one: English pages, no
   * `ui_locales_supported`.
   */
  localizedSignIn: boolean;
  /** No RFC 8414 document: `/.well-known/oauth-authorization-server` answers 404, only OpenID Connect Discovery is published. */
  openIdDiscoveryOnly: boolean;
  /**
   * Pushed Authorization Requests (RFC 9126): "offered" lists `pushed_authorization_request_endpoint`;
   * "required" also sets `require_pushed_authorization_requests` and refuses a front-channel request.
   */
  par: "off" | "offered" | "required";
  /**
   * DPoP (RFC 9449): "offered" advertises ES256 proofs and binds the tokens of a client that sends one;
   * "required" also refuses token requests without a proof. Resources then check proofs (sandbox/dpop.ts).
   */
  dpop: "off" | "offered" | "required";
  /** With DPoP on, proofs must carry the server's nonce, which changes every 30 seconds (RFC 9449 section 8). */
  dpopNonce: boolean;
  /**
   * With DPoP on, the revocation endpoint (RFC 7009) revokes a DPoP-bound token only with a proof of the
   * token's key (`htm` POST, `htu` the revocation endpoint, the nonce rules of `dpopNonce`), as a site may
   * require (RFC 9449 leaves revocation to the site). Unknown and Bearer tokens are unaffected.
   */
  dpopRevocation: boolean;
  /**
   * Revoking a refresh token ends its whole grant, access tokens included, as RFC 7009 section 2.1 asks
   * of a site that can. Off mimics a site that revokes only the token presented.
   */
  refreshRevocationEndsGrant: boolean;
  /**
   * The MCP server refuses every member's token with 401 `invalid_token` (anonymous callers are answered as
   * usual), as a site whose MCP beta checks tokens by rules of its own might, while the Account API takes them:
   * "with_metadata" with the challenge's `resource_metadata` (RFC 9728 section 5.1), "bare" without it.
   */
  mcpMemberTokenRefusal: "off" | "bare" | "with_metadata";
  /**
   * The MCP server's tool titles and descriptions come in the caller's language: English or 繁體中文, as
   * its Accept-Language asks (RFC 9110 section 12.5.4), with a `Content-Language` naming the one given.
   * Off mimics a site that writes them in one language and says nothing of it.
   */
  mcpLocalizedTools: boolean;
  /**
   * The MCP server keeps a session per client, as MCP's Streamable HTTP transport lets a server do (its
   * `Mcp-Session-Id`): initialize opens one, every later request must name it (400 without it, 404 for one it
   * does not know or that another caller opened), and DELETE ends it. Off: stateless, every POST on its own.
   */
  mcpSessions: boolean;
  /** The MCP server answers each POST with an event stream (`text/event-stream`, the SDK's default) rather than JSON. */
  mcpEventStream: boolean;
  /**
   * With `mcpSessions`: the next N requests that name a session find it gone (404, the session ended), as at a
   * site whose load balancer sends them to an instance that does not hold it, or whose server restarted.
   */
  mcpSessionsLost: number;
  /**
   * The MCP server lists its tools N at a time (0: all in one answer), each page naming the next with an opaque
   * `nextCursor` (MCP's pagination), as a server with many tools answers `tools/list`; a cursor it did not give
   * is refused as invalid params.
   */
  mcpToolsPageSize: number;
  /**
   * How the Account API refuses a token it does not take (missing, unknown, expired, revoked, another
   * origin's): "challenge", the documented 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750 section 3);
   * "no_challenge", the same 401 and JSON error without the header; "graphql_401", 401 with a GraphQL error
   * coded `UNAUTHENTICATED` (as Adobe Commerce answers); "graphql_200", that error with 200 and no data (as
   * Apollo Server answers an `AuthenticationError`). A missing scope stays 403 with its challenge.
   */
  accountApiTokenRefusal: AccountApiTokenRefusal;
  /**
   * Whose words the Account API's validation errors for a field its schema lacks are in, as the GraphQL
   * server a site runs on writes them: "graphql-js" (`Cannot query field "x" on type "Y".`, 400);
   * "graphql-ruby" (`Field 'x' doesn't exist on type 'Y'`, with `extensions.code: "undefinedField"`,
   * `typeName` and `fieldName`, 200); "graphql-java" (`Validation error (FieldUndefined@[…]) : Field 'x' in
   * type 'Y' is undefined`, classification ValidationError, 200); "hot-chocolate" (``The field `x` does
   * not exist on the type `Y`.``, 400).
   */
  graphqlServer: GraphqlServer;
  /**
   * The most a query may cost, as sites that price queries allow (0: no limit). A field costs 1 plus, for
   * a connection, its `first` times what it selects (graphql-ruby's and Hot Chocolate's manner); a query
   * over the limit is refused whole, in the words of `graphqlServer`, naming its cost and the limit.
   */
  graphqlMaxCost: number;
  /**
   * Amounts of money (`Order.amount`, `refundedAmount`, `OrderLineItem.amount`) as a `Decimal` scalar
   * written as a string ("19.99"), as Shopify's schema and graphql-ruby's BigDecimal write them, not `Float`.
   */
  decimalAmounts: boolean;
  /** The token response's `scope` with commas between the scopes ("openid,account:read"), as GitHub's OAuth apps write it. */
  commaScopes: boolean;
  /**
   * The issuer identifier written with its path "/" (`http://127.0.0.1:4000/`), as Auth0 writes it: in the
   * metadata's `issuer` and `authorization_servers`, and the `iss` of id_tokens, authorization responses and
   * introspection. The dashboard then needs SITE_ISSUER.
   */
  issuerTrailingSlash: boolean;
  /**
   * The content coding of the site's answers (metadata, keys, token, UserInfo, revocation, GraphQL, MCP's
   * JSON), as a web server or CDN in front of a site applies it: "gzip" or "br" when the request's
   * Accept-Encoding names it, or has none, since no Accept-Encoding means any coding is acceptable (RFC 9110
   * section 12.5.3); null, none.
   */
  contentCoding: ContentCoding | null;
  /**
   * The token endpoint answers a refused code exchange or renewal with 200 and its error body
   * (`{"error":"invalid_grant",…}`), as GitHub's OAuth apps do, where RFC 6749 section 5.2 asks for 400.
   */
  tokenErrorsWith200: boolean;
}

export const CONTENT_CODINGS = ["gzip", "br"] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

export const ACCOUNT_API_TOKEN_REFUSALS = ["challenge", "no_challenge", "graphql_401", "graphql_200"] as const;
export type AccountApiTokenRefusal = (typeof ACCOUNT_API_TOKEN_REFUSALS)[number];

export const GRAPHQL_SERVERS = ["graphql-js", "graphql-ruby", "graphql-java", "hot-chocolate"] as const;
export type GraphqlServer = (typeof GRAPHQL_SERVERS)[number];

export const DEFAULT_KNOBS: SandboxKnobs = {
  accessTokenTtlSeconds: 7200,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  idToken: true,
  latencyMs: 0,
  failures: {},
  accessTokenPadding: 0,
  graphqlMissingFields: [],
  graphqlSeedFieldsOnly: false,
  graphqlFieldErrors: [],
  graphqlUnavailableItems: [],
  maxPageSize: 100,
  cursorTtlSeconds: 0,
  cursorMinLength: 0,
  newOrders: 0,
  extraEnrollments: 0,
  coverOrigin: "",
  relativeCoverUrls: false,
  dateTimesWithoutOffset: false,
  dateTimesBasicOffset: false,
  answerPaddingBytes: {},
  foreignResources: [],
  clockOffsetMs: 0,
  cimdAllowedHosts: [],
  cimdOpenRegistration: false,
  cimdAllowHttpLoopback: false,
  endSession: true,
  refreshRefusalWithoutBody: false,
  refreshWithoutRotation: false,
  writesNulls: false,
  expiresInAsText: false,
  userInfoRolesReordered: false,
  idTokenSubjectOnly: false,
  partialConsent: false,
  localizedSignIn: false,
  openIdDiscoveryOnly: false,
  par: "off",
  dpop: "off",
  dpopNonce: false,
  dpopRevocation: false,
  refreshRevocationEndsGrant: true,
  mcpMemberTokenRefusal: "off",
  mcpLocalizedTools: false,
  mcpSessions: false,
  mcpEventStream: false,
  mcpSessionsLost: 0,
  mcpToolsPageSize: 0,
  accountApiTokenRefusal: "challenge",
  graphqlServer: "graphql-js",
  graphqlMaxCost: 0,
  decimalAmounts: false,
  commaScopes: false,
  issuerTrailingSlash: false,
  contentCoding: null,
  tokenErrorsWith200: false,
};

/** `example.com`, `docs.example.com:8443`, `127.0.0.1:4100`: a host as in a URL's `host`, lower case. */
export const HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

const originSchema = z.url().refine((value) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}, "must be an origin such as https://sister.example.com (no path, no trailing slash)");

const failuresSchema = z
  .partialRecord(z.enum(ENDPOINT_NAMES), failureSchema.nullable())
  .refine(
    (failures) => Object.entries(failures).every(([endpoint, spec]) => spec?.mode !== "throttled" || endpoint === "graphql"),
    "only the graphql endpoint answers throttled",
  );

/** The largest padding an answer gets (a 10 MB answer is the test case). */
export const MAX_ANSWER_PADDING_BYTES = 32 * 1024 * 1024;

/** Partial knobs as accepted at runtime; `null` for a failure entry clears it. */
export const knobsPatchSchema = z
  .object({
    accessTokenTtlSeconds: z
      .number()
      .int()
      .positive()
      .max(10 * 365 * 24 * 3600),
    refreshTokenTtlSeconds: z
      .number()
      .int()
      .positive()
      .max(10 * 365 * 24 * 3600),
    idToken: z.boolean(),
    latencyMs: z.number().int().min(0).max(60_000),
    failures: failuresSchema,
    accessTokenPadding: z.number().int().min(0).max(100_000),
    graphqlMissingFields: z.array(z.string().regex(/^([A-Za-z_]\w*\.)?[A-Za-z_]\w*$/)).max(100),
    graphqlSeedFieldsOnly: z.boolean(),
    graphqlFieldErrors: z.array(z.string().regex(/^[A-Za-z_]\w*\.[A-Za-z_]\w*$/)).max(100),
    graphqlUnavailableItems: z.array(z.string().min(1).max(200)).max(100),
    maxPageSize: z.number().int().min(1).max(10_000),
    cursorTtlSeconds: z
      .number()
      .int()
      .min(0)
      .max(10 * 365 * 24 * 3600),
    cursorMinLength: z.number().int().min(0).max(16_384),
    newOrders: z.number().int().min(0).max(1_000),
    extraEnrollments: z.number().int().min(0).max(5_000),
    coverOrigin: z.union([z.literal(""), originSchema]),
    relativeCoverUrls: z.boolean(),
    dateTimesWithoutOffset: z.boolean(),
    dateTimesBasicOffset: z.boolean(),
    answerPaddingBytes: z.partialRecord(z.enum(ENDPOINT_NAMES), z.number().int().min(0).max(MAX_ANSWER_PADDING_BYTES)),
    foreignResources: z.array(originSchema).max(20),
    clockOffsetMs: z.number().int(),
    cimdAllowedHosts: z
      .array(z.string().toLowerCase().regex(HOST_PATTERN, "must be a host such as example.com or example.com:8443"))
      .max(50),
    cimdOpenRegistration: z.boolean(),
    cimdAllowHttpLoopback: z.boolean(),
    endSession: z.boolean(),
    refreshRefusalWithoutBody: z.boolean(),
    refreshWithoutRotation: z.boolean(),
    writesNulls: z.boolean(),
    expiresInAsText: z.boolean(),
    userInfoRolesReordered: z.boolean(),
    idTokenSubjectOnly: z.boolean(),
    partialConsent: z.boolean(),
    localizedSignIn: z.boolean(),
    openIdDiscoveryOnly: z.boolean(),
    par: z.enum(["off", "offered", "required"]),
    dpop: z.enum(["off", "offered", "required"]),
    dpopNonce: z.boolean(),
    dpopRevocation: z.boolean(),
    refreshRevocationEndsGrant: z.boolean(),
    mcpMemberTokenRefusal: z.enum(["off", "bare", "with_metadata"]),
    mcpLocalizedTools: z.boolean(),
    mcpSessions: z.boolean(),
    mcpEventStream: z.boolean(),
    mcpSessionsLost: z.number().int().min(0).max(100),
    mcpToolsPageSize: z.number().int().min(0).max(1_000),
    accountApiTokenRefusal: z.enum(ACCOUNT_API_TOKEN_REFUSALS),
    graphqlServer: z.enum(GRAPHQL_SERVERS),
    graphqlMaxCost: z.number().int().min(0),
    decimalAmounts: z.boolean(),
    commaScopes: z.boolean(),
    issuerTrailingSlash: z.boolean(),
    contentCoding: z.enum(CONTENT_CODINGS).nullable(),
    tokenErrorsWith200: z.boolean(),
  })
  .partial()
  .strict();

export type KnobsPatch = z.input<typeof knobsPatchSchema>;

/** Merges a patch into knobs. `failures` merges per endpoint; a `null` entry removes that endpoint's failure. */
export function mergeKnobs(current: SandboxKnobs, patch: KnobsPatch): SandboxKnobs {
  const next: SandboxKnobs = { ...current, failures: { ...current.failures } };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === "answerPaddingBytes") {
      next.answerPaddingBytes = { ...(value as Partial<Record<EndpointName, number>>) };
    } else if (key === "failures") {
      for (const [endpoint, spec] of Object.entries(value as Record<string, FailureSpec | null | undefined>)) {
        const name = endpoint as EndpointName;
        if (spec === null) delete next.failures[name];
        else if (spec !== undefined) next.failures[name] = { ...spec };
      }
    } else if (Array.isArray(value)) {
      (next as unknown as Record<string, unknown>)[key] = [...(value as unknown[])];
    } else {
      (next as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return next;
}

/**
 * Parses a failure list such as `token=503,userinfo=malformed,graphql=redirect,jwks=500x2`
 * (`xN`: only the next N requests). Returns the failures or the list of problems.
 */
export function parseFailureList(
  text: string,
): { ok: true; failures: Partial<Record<EndpointName, FailureSpec>> } | { ok: false; problems: string[] } {
  const failures: Partial<Record<EndpointName, FailureSpec>> = {};
  const problems: string[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const match = /^([a-z]+)=(\d{3}|malformed|redirect|throttled)(?:x(\d+))?$/.exec(entry);
    const endpoint = match?.[1];
    const mode = match?.[2];
    if (!match || !endpoint || !mode) {
      problems.push(`"${entry}" is not endpoint=<status|malformed|redirect|throttled>[xN]`);
      continue;
    }
    if (!(ENDPOINT_NAMES as readonly string[]).includes(endpoint)) {
      problems.push(`"${endpoint}" is not one of ${ENDPOINT_NAMES.join(", ")}`);
      continue;
    }
    const times = match[3] === undefined ? undefined : Number(match[3]);
    if (times !== undefined && times < 1) {
      problems.push(`"${entry}": the count must be at least 1`);
      continue;
    }
    const withTimes = times === undefined ? {} : { times };
    let spec: FailureSpec;
    if (mode === "throttled" && endpoint !== "graphql") {
      problems.push(`"${entry}": only the graphql endpoint answers throttled`);
      continue;
    }
    if (mode === "malformed") spec = { mode: "malformed", ...withTimes };
    else if (mode === "throttled") spec = { mode: "throttled", ...withTimes };
    else if (mode === "redirect") spec = { mode: "redirect", ...withTimes };
    else {
      const status = Number(mode);
      if (status < 400 || status > 599) {
        problems.push(`"${entry}": the status must be between 400 and 599`);
        continue;
      }
      spec = { mode: "status", status, ...withTimes };
    }
    failures[endpoint as EndpointName] = spec;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, failures };
}
