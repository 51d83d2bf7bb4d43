/**
 * After `next build` (the Dockerfile's `npm run build`): the prerendered pages' inline-script hashes,
 * written into the standalone bundle, where the proxy reads them (scripts/static-page-hashes.ts).
 */
import { writeStaticPageHashes } from "./static-page-hashes.ts";
import { projectRoot } from "./standalone.ts";

writeStaticPageHashes(projectRoot(".next"), projectRoot(".next", "standalone"));
