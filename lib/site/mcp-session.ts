/**
 * MCP Streamable HTTP, session management: a 404 to a request that names the session (`Mcp-Session-Id`) says the
 * server no longer holds it (restarted, or an instance behind a load balancer that never held it), and the
 * client must start a new one. Read by the dashboard's MCP client and the doctor. No server-only import: the
 * doctor runs outside Next.js.
 */
export function lostMcpSession(status: number, requestHeaders: HeadersInit | undefined): boolean {
  return status === 404 && new Headers(requestHeaders).has("mcp-session-id");
}
