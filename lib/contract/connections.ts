/**
 * What the server and the browser both read of `GET /api/account/connections`' answer. Client-safe: no
 * server-only import.
 */
import type { ConnectionsUnavailableReason } from "@/lib/types/account";

/**
 * True for a reason that may pass by the next view: the server does not keep it as the probe's answer
 * (lib/site/mcp-client.ts), and Settings says it "right now" and offers Retry (components/settings/connections-panel.tsx).
 */
export function isPassingReason(reason: ConnectionsUnavailableReason): boolean {
  return reason === "unreachable" || reason === "busy";
}
