import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { startLogin } from "@/lib/auth/login";
import { loadSession } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";
import { DEMO_MEMBERS } from "@/sandbox/seed";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar } from "../support/memory-jar";

const OLIVIA = DEMO_MEMBERS.find((member) => member.roles.length > 1)!;

/**
 * A member with several roles signs in whether the site's UserInfo lists them in the id_token's order or in
 * another (sandbox knob `userInfoRolesReordered`): over real HTTP, the id_token verified and UserInfo compared.
 */
describe.each([false, true])("UserInfo roles in another order than the id_token's: %s", (userInfoRolesReordered) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ userInfoRolesReordered });
  });
  afterAll(async () => sandbox.close());

  it(`signs in ${OLIVIA.email}, with her ${OLIVIA.roles.length} roles`, async () => {
    const jar = memoryJar();
    const redirect = await authorizeWithoutBrowser((await startLogin(jar, "/")).href, { email: OLIVIA.email });
    await handleCallback(jar, redirect);
    const session = (await loadSession(jar))!.data;
    expect(session.claims.sub).toBe(OLIVIA.id);
    expect(session.claims.roles.toSorted()).toEqual(OLIVIA.roles.toSorted());
    expect(
      sandbox
        .requests()
        .filter((entry) => entry.endpoint === "userinfo")
        .map((entry) => entry.status),
    ).toEqual([200]);
  });
});
