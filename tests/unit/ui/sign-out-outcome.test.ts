import { describe, expect, it } from "vitest";

import { readSignOutOutcome } from "@/lib/client/sign-out";

describe("readSignOutOutcome", () => {
  it("reads the reason and the site's end-session URL", () => {
    expect(
      readSignOutOutcome({ signedOut: true, complete: true, endSessionUrl: "https://school.example.com/oauth/logout?state=s" }),
    ).toEqual({
      reason: "signed_out",
      endSessionUrl: "https://school.example.com/oauth/logout?state=s",
    });
    expect(readSignOutOutcome({ signedOut: true, complete: false })).toEqual({ reason: "signed_out_locally", endSessionUrl: null });
  });

  it("never navigates to anything but an http(s) URL", () => {
    for (const endSessionUrl of ["javascript:alert(1)", "data:text/html,x", "//evil.example", 42]) {
      expect(readSignOutOutcome({ signedOut: true, complete: true, endSessionUrl }).endSessionUrl).toBeNull();
    }
    expect(readSignOutOutcome(undefined)).toEqual({ reason: "signed_out", endSessionUrl: null });
  });
});
