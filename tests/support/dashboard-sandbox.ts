import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { resetConfigForTests } from "@/lib/config";
import { startSandbox, type KnobsPatch, type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { configureDashboard, TEST_APP_URL } from "./env";

/**
 * Starts a sandbox on a free port and points the dashboard's configuration at it, with its seeded client.
 * `control` enables its `/__sandbox/*` routes, as SANDBOX_CONTROL does.
 */
export async function startSandboxForDashboard(knobs: KnobsPatch = {}, options: { control?: boolean } = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    dashboardRedirectUris: [`${TEST_APP_URL}/api/auth/callback`],
    knobs,
    control: options.control === true,
  });
  configureDashboard(sandbox.url, {
    OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
    OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
  });
  resetConfigForTests();
  resetDiscoveryCacheForTests();
  return sandbox;
}
