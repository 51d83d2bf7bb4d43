import { describe, expect, it } from "vitest";

import { readSignOutOutcome } from "@/lib/client/sign-out";

describe("readSignOutOutcome", () => {
  it("reads the reason and the dashboard's path on to the site's end-session endpoint", () => {
    expect(readSignOutOutcome({ signedOut: true, complete: true, endSessionUrl: "/api/auth/end-session?ticket=Fe26.2*x" })).toEqual({
      reason: "signed_out",
      endSessionUrl: "/api/auth/end-session?ticket=Fe26.2*x",
    });
    expect(readSignOutOutcome({ signedOut: true, complete: false })).toEqual({ reason: "signed_out_locally", endSessionUrl: null });
  });

  it("never navigates anywhere but the dashboard's own end-session path", () => {
    for (const endSessionUrl of [
      "javascript:alert(1)",
      "data:text/html,x",
      "//evil.example",
      "https://school.example.com/oauth/logout?state=s",
      "https://evil.example/api/auth/end-session?ticket=x",
      "/api/auth/logout",
      42,
    ]) {
      expect(readSignOutOutcome({ signedOut: true, complete: true, endSessionUrl }).endSessionUrl).toBeNull();
    }
    expect(readSignOutOutcome(undefined)).toEqual({ reason: "signed_out", endSessionUrl: null });
  });
});
