import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { loadSession } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";
import { DEMO_MEMBERS } from "@/sandbox/seed";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { signInWithJar } from "../support/sign-in-with-jar";

const OLIVIA = DEMO_MEMBERS.find((member) => member.roles.length > 1)!;

/**
 * A member with several roles signs in, the id_token verified and compared with UserInfo over real HTTP,
 * whatever the site's id_token and UserInfo look like within OpenID Connect: UserInfo listing the roles in
 * another order (sandbox knob `userInfoRolesReordered`), an id_token naming the member by `sub` alone, the
 * other claims UserInfo's (`idTokenSubjectOnly`, OpenID Connect Core 5.4), or both.
 */
describe.each([
  { userInfoRolesReordered: false, idTokenSubjectOnly: false },
  { userInfoRolesReordered: true, idTokenSubjectOnly: false },
  { userInfoRolesReordered: false, idTokenSubjectOnly: true },
  { userInfoRolesReordered: true, idTokenSubjectOnly: true },
])("roles reordered in UserInfo: $userInfoRolesReordered; an id_token with sub alone: $idTokenSubjectOnly", (knobs) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard(knobs);
  });
  afterAll(async () => sandbox.close());

  it(`signs in ${OLIVIA.email}, with her name, email and ${OLIVIA.roles.length} roles`, async () => {
    const jar = await signInWithJar(OLIVIA.email);
    const session = (await loadSession(jar))!.data;
    expect(session.claims).toMatchObject({ sub: OLIVIA.id, email: OLIVIA.email, name: OLIVIA.name });
    expect(session.claims.roles.toSorted()).toEqual(OLIVIA.roles.toSorted());
    expect(
      sandbox
        .requests()
        .filter((entry) => entry.endpoint === "userinfo")
        .map((entry) => entry.status),
    ).toEqual([200]);
  });
});
