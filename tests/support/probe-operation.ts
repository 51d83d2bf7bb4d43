import { z } from "zod";

import type { AccountOperation } from "@/lib/account-api/operation";

/** The smallest Account API operation: the member's id, in the form the site must answer it. */
export const PROBE_OPERATION: AccountOperation<{ viewer: { id: string } }> = {
  document: "query DashboardProbe { viewer { id } }",
  answer: z.object({ viewer: z.object({ id: z.string() }) }),
};
