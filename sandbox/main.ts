/**
 * `npm run sandbox`: starts the sandbox site.
 *
 * Environment (all optional; read and validated by `config.ts`, every bad variable named at once):
 *   SANDBOX_PORT                     port to listen on (default 4000; 0 picks a free port)
 *   SANDBOX_HOST                     interface to bind (default 127.0.0.1)
 *   SANDBOX_ISSUER                   issuer origin (default http://<host>:<port>)
 *   SANDBOX_DASHBOARD_REDIRECT_URIS  comma-separated redirect URIs of the seeded dashboard client
 *                                    (default http://localhost:3000/api/auth/callback)
 * Test knobs (off by default):
 *   SANDBOX_ACCESS_TOKEN_TTL         access token lifetime in seconds (default 7200)
 *   SANDBOX_REFRESH_TOKEN_TTL        refresh token lifetime in seconds (default 2592000)
 *   SANDBOX_ID_TOKEN=off             no id_token; discovery omits jwks_uri and id_token_signing_alg_values_supported
 *   SANDBOX_END_SESSION=off          no RP-Initiated Logout: discovery omits end_session_endpoint, /oauth/logout answers 404
 *   SANDBOX_LATENCY_MS               added latency per answer in ms (benchmarks use 20)
 *   SANDBOX_FAIL                     failure injection, e.g. token=503,userinfo=malformed,graphql=redirect,jwks=500x2
 *                                    (endpoints: discovery jwks authorize token userinfo revoke introspect graphql
 *                                    register mcp par covers; modes: an HTTP status, malformed, redirect, throttled
 *                                    (graphql only: a 200 answer with a "THROTTLED" GraphQL error);
 *                                    xN = next N requests only)
 *   SANDBOX_ACCESS_TOKEN_PADDING     extra characters per access token (2000 gives ~2 KB tokens)
 *   SANDBOX_GRAPHQL_MISSING_FIELDS   comma-separated fields the Account API lacks, e.g. orders,EnrolledCourse.name
 *   SANDBOX_GRAPHQL_SEED_FIELDS_ONLY=1  the Account API serves only the seed's fields (no orders, events, names, pageInfo…)
 *   SANDBOX_MAX_PAGE_SIZE            the largest `first` the Account API accepts (default 100)
 *   SANDBOX_CURSOR_TTL               seconds an Account API cursor stays good (default 0: for ever); older ones are refused
 *   (knob failures, runtime only, beyond SANDBOX_FAIL: a status's retryAfter, its OAuth error, and more headers,
 *    e.g. { graphql: { mode: "status", status: 403, retryAfter: null, headers: { "x-ratelimit-remaining": "0" } } })
 *   (knob answerPaddingBytes, runtime only: pads an endpoint's answers to N bytes, e.g. { graphql: 10485760 })
 *   (knob cursorMinLength, runtime only: pads each Account API cursor to N characters, as signed cursors run long)
 *   (knob newOrders, runtime only: N orders each member placed since the seed, at the top of their list)
 *   (knob extraEnrollments, runtime only: N enrollments each member has beyond the seed's, after their own)
 *   (knob coverOrigin, runtime only: the origin of the covers' imageUrl, as a site whose covers are on a CDN)
 *   (knob relativeCoverUrls, runtime only: imageUrl as a path on the site, /covers/<slug>.svg)
 *   (knob dateTimesWithoutOffset, runtime only: DateTimes as Taipei's wall-clock time with no offset, 2026-12-10T20:00:00)
 *   (knob dateTimesBasicOffset, runtime only: DateTimes with the offset written +0800, as PHP's DATE_ISO8601 writes it)
 *   (knob graphqlFieldErrors, runtime only: "Type.field" resolvers that fail, answered as a partial result)
 *   (knob graphqlUnavailableItems, runtime only: slugs and ids of list items the site cannot give, answered as null)
 *   (knob userInfoRolesReordered, runtime only: UserInfo lists a member's roles in another order than the id_token)
 *   (knob idTokenSubjectOnly, runtime only: the id_token names the member by sub alone; UserInfo gives the rest)
 *   (knob tokenErrorsWith200, runtime only: a refused code exchange or refresh answered 200 with its JSON error, as GitHub's)
 *   (knob mcpToolsPageSize, runtime only: the MCP server's tools/list answers N tools a page, with nextCursor)
 * What other providers do (on|off, default off):
 *   SANDBOX_REFRESH_REFUSAL_WITHOUT_BODY=on  a refused refresh is answered 400 with an empty body
 *   SANDBOX_REFRESH_WITHOUT_ROTATION=on      a refresh renews the access token alone; the refresh token stays good
 *   SANDBOX_PARTIAL_CONSENT=on       the consent page lets the member untick scopes; fewer scopes are granted
 *   SANDBOX_OPENID_DISCOVERY_ONLY=on no RFC 8414 document: only /.well-known/openid-configuration is published
 *   SANDBOX_LOCALIZED_SIGN_IN=on     sign-in, consent and sign-out pages in English and 繁體中文
 *                                    (ui_locales_supported), chosen by the request's ui_locales
 *   SANDBOX_ACCOUNT_API_TOKEN_REFUSAL  how the Account API refuses a token: challenge (the documented 401 with
 *                                    WWW-Authenticate, default) | no_challenge (401 without the header) | graphql_401
 *                                    | graphql_200 (a GraphQL error coded UNAUTHENTICATED, with 401 or 200)
 *   SANDBOX_GRAPHQL_SERVER           whose words the Account API's "no such field" errors are in: graphql-js
 *                                    (default) | graphql-ruby | graphql-java | hot-chocolate; and its cost refusals
 *   SANDBOX_GRAPHQL_MAX_COST         the most a query may cost (a field 1, a connection `first` times what it
 *                                    selects); over it the query is refused whole, naming its cost (default 0: no limit)
 *   SANDBOX_DECIMAL_AMOUNTS=on       amounts of money as a Decimal scalar written as a string ("19.99"), as Shopify's
 *   SANDBOX_COMMA_SCOPES=on          the token response's scope comma-delimited ("openid,account:read"), as GitHub's
 *   SANDBOX_ISSUER_TRAILING_SLASH=on the issuer written with its path "/" (http://127.0.0.1:4000/), as Auth0's; the
 *                                    dashboard then needs SITE_ISSUER
 *   SANDBOX_CONTENT_CODING           gzip | br | off (default): answers compressed as a web server or CDN in front of
 *                                    a site compresses them, when the request accepts that coding or names none
 * Pushed authorization requests and DPoP (default off):
 *   SANDBOX_PAR                      off | offered (lists pushed_authorization_request_endpoint) | required
 *                                    (also require_pushed_authorization_requests; a front-channel request is refused)
 *   SANDBOX_DPOP                     off | offered (advertises ES256 proofs, binds the tokens of a client that
 *                                    proves a key) | required (token requests without a proof are refused)
 *   SANDBOX_DPOP_NONCE=on            DPoP proofs must carry the server's nonce, which changes every 30 seconds
 *   SANDBOX_DPOP_REVOCATION=on       revocation of a DPoP-bound token requires a proof of the token's key
 *   SANDBOX_FOREIGN_RESOURCES        comma-separated sister-site origins accepted as `resource`
 *   SANDBOX_CONTROL=1                enables POST /__sandbox/knobs, GET /__sandbox/requests, POST /__sandbox/reset,
 *                                    POST /__sandbox/mcp-beta (the admin's MCP connections beta: { "enabled": true }),
 *                                    POST /__sandbox/withdraw-access ({ "email": … }: the member withdraws the apps' access),
 *                                    POST /__sandbox/rotate-signing-key ({ "mode": "graceful" | "abrupt" | "unpublished" }:
 *                                    a new id_token signing key; graceful keeps the old keys published, abrupt drops
 *                                    them, unpublished signs with a key the JWKS does not list; see signing-keys.ts)
 *                                    (POSTs must be JSON with `Origin: <this site>`; the log keeps the newest 2000)
 * Client ID Metadata Documents (section 5.3 rule 5):
 *   SANDBOX_CIMD_ALLOWED_HOSTS       comma-separated hosts whose HTTPS documents may be fetched (default none)
 *   SANDBOX_CIMD_OPEN_REGISTRATION=1 fetch documents from any public HTTPS host
 *   (knob cimdAllowHttpLoopback, test only: also accept http://127.0.0.1:<port> document URLs)
 */
import { loadSandboxConfig, SandboxConfigError } from "./config";
import { DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET, DEMO_MEMBERS, DEMO_PASSWORD } from "./seed";
import { ADMIN_PATH, MCP_PATH, startSandbox } from "./server";

async function main(): Promise<void> {
  let config;
  try {
    config = loadSandboxConfig(process.env);
  } catch (error) {
    if (error instanceof SandboxConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const sandbox = await startSandbox({ ...config.options, port: config.port, host: config.host });
  const redirects = sandbox.state.clients.get(DASHBOARD_CLIENT_ID)?.redirectUris.join(", ") ?? "";
  console.info(`Sandbox site listening at ${sandbox.url}`);
  console.info(`  discovery: ${sandbox.url}/.well-known/oauth-authorization-server`);
  console.info(
    `  MCP server: ${sandbox.url}${MCP_PATH}; docs: ${sandbox.url}/auth.md, ${sandbox.url}/openapi.json, ${sandbox.url}/llms.txt`,
  );
  console.info(`  operator admin: ${sandbox.url}${ADMIN_PATH} (olivia@example.com)`);
  console.info(`  dashboard client: ${DASHBOARD_CLIENT_ID} / ${DASHBOARD_CLIENT_SECRET} (redirect: ${redirects})`);
  console.info(`  demo sign-ins (password "${DEMO_PASSWORD}"):`);
  for (const member of DEMO_MEMBERS) console.info(`    ${member.email.padEnd(22)} ${member.name}: ${member.description}`);
  if (sandbox.state.control) console.info("  control endpoints enabled under /__sandbox/");

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.info(`Received ${signal}, stopping the sandbox.`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("The sandbox could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
