import { localeOfRequest } from "@/lib/i18n/locales";
import { memberJsonRoute } from "@/lib/http/member-route";
import { connectionsLoader } from "@/lib/site/mcp-client";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

/**
 * `GET /api/account/connections`: what an AI assistant connected to the site's MCP server can do for the
 * signed-in member (the server's name, its tools in the member's language where the site writes it, the
 * URL to paste). Never a token.
 */
export const GET = memberJsonRoute(API_ROUTES.connections, (request) => connectionsLoader(localeOfRequest(request)));
