import { expect } from "vitest";

import { AuthError } from "@/lib/auth/errors";
import { startLogin } from "@/lib/auth/login";

import { memoryJar, type MemoryJar } from "./memory-jar";

/** A sign-in begun in one browser (its transaction cookie in `jar`), as the site's authorization URL names it. */
export interface SignInAttempt {
  jar: MemoryJar;
  state: string;
  nonce: string;
  authorizationUrl: URL;
}

/** Starts a sign-in that returns to `returnTo`, in a fresh browser jar. */
export async function beginLogin(returnTo = "/courses"): Promise<SignInAttempt> {
  const jar = memoryJar();
  const authorizationUrl = await startLogin(jar, returnTo);
  return { jar, authorizationUrl, state: authorizationUrl.searchParams.get("state")!, nonce: authorizationUrl.searchParams.get("nonce")! };
}

/** The AuthError `promise` is refused with (the test fails when it resolves or throws anything else). */
export async function refusal(promise: Promise<unknown>): Promise<AuthError> {
  const error: unknown = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}
