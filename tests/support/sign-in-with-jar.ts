import { handleCallback } from "@/lib/auth/callback";
import { startLogin } from "@/lib/auth/login";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { memoryJar, type MemoryJar } from "./memory-jar";

/** Signs `email` in at the sandbox the dashboard is configured for, through the library calls the routes make: the session's jar. */
export async function signInWithJar(email = "maya@example.com"): Promise<MemoryJar> {
  const jar = memoryJar();
  const redirect = await authorizeWithoutBrowser((await startLogin(jar, "/")).href, { email });
  await handleCallback(jar, redirect);
  return jar;
}
