/**
 * The last step of `npm run build`: writes the API routes' methods, read from the route files, into the
 * standalone bundle, where the method guard reads them (lib/http/method-policy.ts). Plain Node.js.
 */
import { writeRouteTable } from "../lib/http/method-policy.ts";

import { projectRoot } from "./standalone.ts";

writeRouteTable(projectRoot(), projectRoot(".next", "standalone"));
