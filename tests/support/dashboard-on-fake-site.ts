import { beforeAll, beforeEach } from "vitest";

import { InMemorySharedState, setSharedStateForTests, SharedStateUnavailableError } from "@/lib/session/shared-state";

import { configureDashboard } from "./env";
import { setUpFakeSite, type FakeSite } from "./fake-site";

/**
 * A fake site and the dashboard configured for it; before each test, a fresh in-memory shared state and a
 * fake site reset to its discovery handlers (tests/support/fake-site.ts). The test file's own hooks then
 * set the site's handlers.
 */
export function setUpDashboardOnFakeSite(): FakeSite {
  const site = setUpFakeSite();
  beforeAll(() => {
    configureDashboard(site.url);
  });
  beforeEach(() => {
    setSharedStateForTests(new InMemorySharedState());
  });
  return site;
}

/**
 * The shared state stops answering (recall and remember) the moment the site answers the token request:
 * Redis gone right after the site rotated the refresh token. `recover()` brings it back.
 */
export function sharedStateDownFromTheGrant(site: FakeSite): { recover(): void } {
  let down = false;
  class GoesDownAfterTheGrant extends InMemorySharedState {
    override recall(key: string) {
      return down ? Promise.reject(new SharedStateUnavailableError("Redis did not answer (recall).")) : super.recall(key);
    }
    override remember(key: string, value: string, ttlMs: number) {
      return down ? Promise.reject(new SharedStateUnavailableError("Redis did not answer (remember).")) : super.remember(key, value, ttlMs);
    }
  }
  setSharedStateForTests(new GoesDownAfterTheGrant());
  const granting = site.handlers.get("POST /api/oauth/token")!;
  site.handlers.set("POST /api/oauth/token", (call) => {
    down = true;
    return granting(call);
  });
  return {
    recover: () => {
      down = false;
    },
  };
}
