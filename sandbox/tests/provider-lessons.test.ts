import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { encodeAnswer } from "../content-coding";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { DEMO_MEMBERS, PUBLIC_CLIENT_ID, PUBLIC_CLIENT_REDIRECT_URI } from "../seed";
import { findForm, postSandboxControl, SandboxBrowser } from "../testing";
import { graphql, obtainTokens, postForm, refreshTokens } from "./helpers";

/** The knobs of issue 30 item 0: what a second, independent OpenID provider does differently. */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, control: true });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setKnobs({
    refreshRefusalWithoutBody: false,
    refreshWithoutRotation: false,
    writesNulls: false,
    idToken: true,
    partialConsent: false,
    openIdDiscoveryOnly: false,
    localizedSignIn: false,
    accountApiTokenRefusal: "challenge",
    userInfoRolesReordered: false,
    idTokenSubjectOnly: false,
    endSession: true,
    expiresInAsText: false,
    par: "off",
    dpop: "off",
    contentCoding: null,
    graphqlFieldErrors: [],
    tokenErrorsWith200: false,
  });
});

describe("idTokenSubjectOnly", () => {
  it("names the member in the id_token by sub alone; UserInfo gives the other claims", async () => {
    sandbox.setKnobs({ idTokenSubjectOnly: true });
    const tokens = await obtainTokens(sandbox);
    const claims = decodeJwt(tokens.idToken!);
    expect(Object.keys(claims).sort()).toEqual(["aud", "exp", "iat", "iss", "nonce", "sub"]);
    const userInfo = await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(await userInfo.json()).toMatchObject({ sub: claims.sub, email: "maya@example.com", name: "Maya Chen", roles: ["student"] });
  });
});

describe("userInfoRolesReordered", () => {
  it("lists the member's roles in UserInfo in another order than the id_token's, the same roles", async () => {
    const olivia = DEMO_MEMBERS.find((member) => member.roles.length > 1)!;
    const userInfoRoles = async () => {
      const tokens = await obtainTokens(sandbox, { email: olivia.email });
      const response = await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      return { idToken: decodeJwt(tokens.idToken!).roles, userInfo: ((await response.json()) as { roles: string[] }).roles };
    };
    const inOrder = await userInfoRoles();
    expect(inOrder.userInfo).toEqual(inOrder.idToken);
    sandbox.setKnobs({ userInfoRolesReordered: true });
    const reordered = await userInfoRoles();
    expect(reordered.idToken).toEqual(olivia.roles);
    expect(reordered.userInfo).toEqual(olivia.roles.toReversed());
  });
});

describe("refreshRefusalWithoutBody", () => {
  it("answers a refused refresh with 400 and an empty body; off, with the JSON error", async () => {
    const tokens = await obtainTokens(sandbox);
    const withdrawn = await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    expect(await withdrawn.json()).toMatchObject({ withdrawn: expect.any(Number) as number });
    const json = await refreshTokens(sandbox, tokens.refreshToken);
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: "invalid_grant" });
    sandbox.setKnobs({ refreshRefusalWithoutBody: true });
    const bare = await refreshTokens(sandbox, tokens.refreshToken);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({});
  });

  it("withdraw-access refuses a name that is not a demo member", async () => {
    const response = await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "nobody@example.com" });
    expect(response.status).toBe(400);
  });
});

describe("refreshWithoutRotation", () => {
  it("renews the access token alone: no refresh_token in the answer, and the one presented stays good", async () => {
    sandbox.setKnobs({ refreshWithoutRotation: true });
    const tokens = await obtainTokens(sandbox);
    for (let round = 0; round < 3; round += 1) {
      const renewed = await refreshTokens(sandbox, tokens.refreshToken);
      expect(renewed.status).toBe(200);
      expect(renewed.body).not.toHaveProperty("refresh_token");
      expect(renewed.body.access_token).not.toBe(tokens.accessToken);
    }
    // Off (a rotating site), the same token is spent by its first use, and a replay revokes the grant.
    sandbox.setKnobs({ refreshWithoutRotation: false });
    const rotating = await obtainTokens(sandbox);
    const rotated = await refreshTokens(sandbox, rotating.refreshToken);
    expect(rotated.body.refresh_token).toEqual(expect.any(String));
    expect((await refreshTokens(sandbox, rotating.refreshToken)).body).toMatchObject({ error: "invalid_grant" });
  });
});

describe("writesNulls", () => {
  it("writes null for the refresh token a renewal keeps and the id_token it does not issue; off, leaves them out", async () => {
    sandbox.setKnobs({ refreshWithoutRotation: true, idToken: false });
    const tokens = await obtainTokens(sandbox);
    expect(tokens.body).not.toHaveProperty("id_token");
    expect((await refreshTokens(sandbox, tokens.refreshToken)).body).not.toHaveProperty("refresh_token");

    sandbox.setKnobs({ writesNulls: true });
    const withNulls = await obtainTokens(sandbox);
    expect(withNulls.body).toMatchObject({ id_token: null, refresh_token: expect.any(String) as string });
    const renewed = await refreshTokens(sandbox, withNulls.refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ refresh_token: null, id_token: null, access_token: expect.any(String) as string });
    // Whatever it writes, a member with a value keeps it.
    sandbox.setKnobs({ idToken: true, refreshWithoutRotation: false });
    const issued = await obtainTokens(sandbox);
    expect(issued.idToken).toEqual(expect.any(String));
    expect((await refreshTokens(sandbox, issued.refreshToken)).body.refresh_token).toEqual(expect.any(String));
  });

  it("writes null in the id_token and UserInfo for the claims of a scope not granted", async () => {
    sandbox.setKnobs({ writesNulls: true, partialConsent: true });
    const tokens = await obtainTokens(sandbox, { grantScopes: ["openid", "account:read"] });
    const claims = decodeJwt(tokens.idToken!);
    expect(claims).toMatchObject({ email: null, email_verified: null, name: null });
    const info = (await (
      await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
    ).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ sub: claims.sub, email: null, email_verified: null, name: null });
    // Granted, they carry their values.
    const granted = decodeJwt((await obtainTokens(sandbox)).idToken!);
    expect(granted).toMatchObject({ email: "maya@example.com", email_verified: true, name: "Maya Chen" });
  });
  it("writes null in the metadata for what the site does not offer; off, leaves it out; offered, gives it", async () => {
    const OPTIONAL = [
      "end_session_endpoint",
      "jwks_uri",
      "id_token_signing_alg_values_supported",
      "pushed_authorization_request_endpoint",
      "require_pushed_authorization_requests",
      "dpop_signing_alg_values_supported",
      "ui_locales_supported",
    ];
    const openIdConfiguration = async () =>
      (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    sandbox.setKnobs({ endSession: false, idToken: false });
    const without = await openIdConfiguration();
    expect(OPTIONAL.filter((field) => field in without)).toEqual([]);
    sandbox.setKnobs({ writesNulls: true });
    expect(Object.fromEntries(Object.entries(await openIdConfiguration()).filter(([field]) => OPTIONAL.includes(field)))).toEqual(
      Object.fromEntries(OPTIONAL.map((field) => [field, null])),
    );
    sandbox.setKnobs({ endSession: true, idToken: true, par: "required", dpop: "offered", localizedSignIn: true });
    const offered = await openIdConfiguration();
    expect(OPTIONAL.filter((field) => offered[field] === null || offered[field] === undefined)).toEqual([]);
  });

  it("writes null for an Account API answer's errors and extensions when it has none; off, leaves them out", async () => {
    const { accessToken } = await obtainTokens(sandbox);
    const query = "query Email { viewer { email } }";
    const plain = await graphql(sandbox, accessToken, query);
    expect(plain.body).toEqual({ data: { viewer: { email: "maya@example.com" } } });
    sandbox.setKnobs({ writesNulls: true });
    const withNulls = await graphql(sandbox, accessToken, query);
    expect(withNulls.body).toEqual({ errors: null, extensions: null, data: { viewer: { email: "maya@example.com" } } });
    // An answer with errors lists them.
    sandbox.setKnobs({ graphqlFieldErrors: ["Viewer.email"] });
    const failed = await graphql(sandbox, accessToken, query);
    expect(failed.body.errors).toHaveLength(1);
  });
});

describe("tokenErrorsWith200", () => {
  it("answers a refused refresh with 200 and the same JSON error; off, with 400", async () => {
    const refused = await refreshTokens(sandbox, "not-a-refresh-token");
    expect(refused.status).toBe(400);
    sandbox.setKnobs({ tokenErrorsWith200: true });
    const with200 = await refreshTokens(sandbox, "not-a-refresh-token");
    expect(with200.status).toBe(200);
    expect(with200.body).toEqual(refused.body);
    expect(with200.body).toMatchObject({ error: "invalid_grant" });
    // A good grant is answered as ever.
    const tokens = await obtainTokens(sandbox);
    expect((await refreshTokens(sandbox, tokens.refreshToken)).body.access_token).toEqual(expect.any(String));
  });
});

describe("expiresInAsText", () => {
  it("writes the lifetime as a string of digits, at sign-in and at each renewal; off, as a number", async () => {
    const plain = await obtainTokens(sandbox);
    expect(plain.body.expires_in).toBe(7200);
    sandbox.setKnobs({ expiresInAsText: true });
    const tokens = await obtainTokens(sandbox);
    expect(tokens.body.expires_in).toBe("7200");
    expect((await refreshTokens(sandbox, tokens.refreshToken)).body.expires_in).toBe("7200");
  });
});

describe("accountApiTokenRefusal", () => {
  it.each([
    {
      refusal: "challenge",
      status: 401,
      challenge: /^Bearer error="invalid_token", .*resource_metadata=/,
      body: { error: "invalid_token", error_description: expect.any(String) as string },
    },
    {
      refusal: "no_challenge",
      status: 401,
      challenge: null,
      body: { error: "invalid_token", error_description: expect.any(String) as string },
    },
    {
      refusal: "graphql_401",
      status: 401,
      challenge: null,
      body: { data: null, errors: [{ message: expect.any(String) as string, extensions: { code: "UNAUTHENTICATED" } }] },
    },
    {
      refusal: "graphql_200",
      status: 200,
      challenge: null,
      body: { data: null, errors: [{ message: expect.any(String) as string, extensions: { code: "UNAUTHENTICATED" } }] },
    },
  ] as const)(
    "$refusal: refuses a missing, revoked or unknown token that way, and answers a good one",
    async ({ refusal, status, challenge, body }) => {
      sandbox.setKnobs({ accountApiTokenRefusal: refusal });
      const tokens = await obtainTokens(sandbox);
      const revoked = await obtainTokens(sandbox);
      const revocation = await postForm(`${sandbox.url}/api/oauth/revoke`, {
        token: revoked.accessToken,
        client_id: revoked.code.clientId,
        client_secret: revoked.code.secret,
      });
      expect(revocation.status).toBe(200);
      for (const token of [undefined, revoked.accessToken, "not-a-token-of-this-site"]) {
        const refused = await graphql(sandbox, token, "{ viewer { email } }");
        expect(refused.status).toBe(status);
        if (challenge === null) expect(refused.headers.has("www-authenticate")).toBe(false);
        else expect(refused.headers.get("www-authenticate")).toMatch(challenge);
        expect(refused.body).toEqual(body);
      }
      const answered = await graphql(sandbox, tokens.accessToken, "{ viewer { email } }");
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual({ data: { viewer: { email: "maya@example.com" } } });
    },
  );
});

describe("partialConsent", () => {
  it("grants only the ticked scopes, and the claims follow them (no email without the email scope)", async () => {
    sandbox.setKnobs({ partialConsent: true });
    const tokens = await obtainTokens(sandbox, { grantScopes: ["openid", "profile", "account:read"] });
    expect(tokens.body.scope).toBe("openid profile account:read");
    const claims = decodeJwt(tokens.idToken!);
    expect(claims.email).toBeUndefined();
    expect(claims.name).toBeTypeOf("string");
    const info = (await (
      await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
    ).json()) as Record<string, unknown>;
    expect(info.email).toBeUndefined();
    expect(info.sub).toBe(claims.sub);
  });

  it("grants every scope as the page ticks them by default; off, the page has no checkboxes", async () => {
    sandbox.setKnobs({ partialConsent: true });
    expect((await obtainTokens(sandbox)).body.scope).toBe("openid profile email account:read");
    sandbox.setKnobs({ partialConsent: false });
    expect((await obtainTokens(sandbox, { grantScopes: ["openid"] })).body.scope).toBe("openid profile email account:read");
  });
});

describe("openIdDiscoveryOnly", () => {
  it("answers 404 for the RFC 8414 document and keeps the OpenID configuration", async () => {
    sandbox.setKnobs({ openIdDiscoveryOnly: true });
    expect((await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const openid = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(openid.issuer).toBe(sandbox.url);
    sandbox.setKnobs({ openIdDiscoveryOnly: false });
    expect((await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});

describe("localizedSignIn", () => {
  /** The sign-in page, and the consent page after signing in, for an authorization request with `uiLocales`. */
  async function signInPages(uiLocales: string | undefined): Promise<{ signIn: string; consent: string }> {
    const browser = new SandboxBrowser(sandbox.url);
    const url = new URL(`${sandbox.url}/oauth/authorize`);
    const params = {
      response_type: "code",
      client_id: PUBLIC_CLIENT_ID,
      redirect_uri: PUBLIC_CLIENT_REDIRECT_URI,
      scope: "openid account:read",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
      state: "s",
      ...(uiLocales === undefined ? {} : { ui_locales: uiLocales }),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const signIn = await (await browser.request(url.href)).text();
    const form = findForm(signIn, "/oauth/authorize/sign-in")!;
    const signedIn = await browser.post(form.action, { ...form.fields, email: "maya@example.com", password: "demo" });
    await signedIn.body?.cancel();
    return { signIn, consent: await (await browser.get(signedIn.headers.get("location")!)).text() };
  }

  const lang = (page: string) => /<html lang="([^"]+)"/.exec(page)?.[1];

  it("lists its languages, and shows its pages in the first of ui_locales it speaks", async () => {
    sandbox.setKnobs({ localizedSignIn: true });
    const metadata = (await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.ui_locales_supported).toEqual(["en", "zh-TW"]);
    const chinese = await signInPages("fr zh-Hant en");
    expect(lang(chinese.signIn)).toBe("zh-TW");
    expect(chinese.signIn).toContain("<h1>登入 Demo Academy</h1>");
    expect(chinese.signIn).toContain("沙盒網站");
    expect(chinese.signIn).toContain('<label for="password">密碼</label>');
    // The demo accounts are described in the page's language too: no English line left among them.
    expect(chinese.signIn).toContain("Maya Chen：有課程、訂單與活動的學員");
    for (const member of DEMO_MEMBERS) expect(chinese.signIn).not.toContain(member.description);
    expect(lang(chinese.consent)).toBe("zh-TW");
    expect(chinese.consent).toContain("查看你報名的課程、訂單和活動報名");
    expect(chinese.consent).toContain('value="allow">允許</button>');
    for (const uiLocales of ["en zh-TW", "fr", "zh-CN", undefined]) {
      const english = await signInPages(uiLocales);
      expect(lang(english.signIn), uiLocales).toBe("en");
      expect(english.consent, uiLocales).toContain('value="allow">Allow</button>');
      expect(english.signIn, uiLocales).toContain("Maya Chen: Student with courses, orders and events");
    }
  });

  it("off, lists none and speaks English whatever ui_locales asks (the documented site)", async () => {
    const metadata = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata).not.toHaveProperty("ui_locales_supported");
    const pages = await signInPages("zh-TW en");
    expect(lang(pages.signIn)).toBe("en");
    expect(pages.consent).toContain("See your enrolled courses, orders and event registrations");
  });
});

describe("contentCoding", () => {
  /** The metadata over node:http, with the Accept-Encoding given (none when undefined), its body left as sent. */
  const metadata = (acceptEncoding: string | undefined) =>
    new Promise<{ coding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
      const headers = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
      request(`${sandbox.url}/.well-known/oauth-authorization-server`, { headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () =>
          resolve({ coding: answer.headers["content-encoding"], vary: answer.headers.vary, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    });
  const DECODE: Record<string, (body: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };

  it.each([
    { coding: "gzip", acceptEncoding: undefined, sent: "gzip" },
    { coding: "gzip", acceptEncoding: "gzip, deflate, br", sent: "gzip" },
    { coding: "gzip", acceptEncoding: "*", sent: "gzip" },
    { coding: "gzip", acceptEncoding: "br", sent: undefined },
    { coding: "gzip", acceptEncoding: "identity", sent: undefined },
    { coding: "gzip", acceptEncoding: "gzip;q=0, br", sent: undefined },
    { coding: "gzip", acceptEncoding: "*;q=0", sent: undefined },
    { coding: "br", acceptEncoding: "gzip, deflate, br", sent: "br" },
    { coding: "br", acceptEncoding: "gzip, deflate", sent: undefined },
    { coding: null, acceptEncoding: undefined, sent: undefined },
  ] as const)(
    "$coding, asked with Accept-Encoding $acceptEncoding: answers in $sent, the same content",
    async ({ coding, acceptEncoding, sent }) => {
      const plain = JSON.parse((await metadata("identity")).body.toString()) as unknown;
      sandbox.setKnobs({ contentCoding: coding });
      const answer = await metadata(acceptEncoding);
      expect(answer.coding).toBe(sent);
      if (sent !== undefined) expect(answer.vary).toMatch(/Accept-Encoding/);
      const body = sent === undefined ? answer.body : DECODE[sent]!(answer.body);
      expect(JSON.parse(body.toString())).toEqual(plain);
    },
  );

  it("leaves an event stream as it is: a server compresses what it sends whole", async () => {
    const stream = new Response("event: message\ndata: {}\n\n", { headers: { "content-type": "text/event-stream" } });
    const answer = await encodeAnswer(stream, "gzip");
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(await answer.text()).toBe("event: message\ndata: {}\n\n");
  });
});
