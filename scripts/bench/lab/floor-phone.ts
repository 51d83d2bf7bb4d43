/**
 * Lab section (`npm run bench -- --lab=floorPhone`, issue 26): Lighthouse's phone audit of the Next.js floor
 * app (next-floor.ts: the smallest app on the dashboard's Next.js, React and Node, no styles, fonts or
 * providers) with the same profile and runs as the dashboard's pages in the `lighthouse` section. Its
 * TBT is what React and Next.js alone cost a phone's main thread on this machine (their chunks'
 * evaluation and a small hydration); its LCP is a page without a stylesheet or a web font.
 */
import { round, type BenchSection } from "../context";
import { auditLine, openPhoneAuditor, PHONE_TARGETS, type PageAudit } from "../lighthouse";
import { progress } from "../progress";
import { FLOOR_APP_DIRECTORY, FLOOR_PORT, startFloorApp } from "./next-floor";

/** The floor app's pages: one prerendered, and one shaped like Courses (24 courses, rendered per request after 20 ms). */
const FLOOR_PAGES = ["/static", "/dynamic-list"];

export const floorPhone: BenchSection = {
  name: "floorPhone",
  title: "Lighthouse on the Next.js floor app (mobile profile, default throttling), beside the dashboard's pages",
  enabled: () => true,
  async run(context) {
    const floor = await startFloorApp(FLOOR_APP_DIRECTORY, FLOOR_PORT, "/static");
    const auditor = await openPhoneAuditor((name, content) => context.writeArtifact(name, content)).catch((error: unknown) => {
      floor.server.kill("SIGTERM");
      throw error;
    });
    const audits: Record<string, PageAudit> = {};
    try {
      for (const [index, pathname] of FLOOR_PAGES.entries()) {
        progress(`Lighthouse on the floor app, ${pathname}`, index + 1, FLOOR_PAGES.length, "page");
        audits[pathname] = await auditor.audit(`${floor.url}${pathname}`, context.options.lighthouseRuns, {
          artifact: `lighthouse-floor${pathname.replaceAll("/", "-")}.json`,
        });
      }
    } finally {
      auditor.close();
      floor.server.kill("SIGTERM");
    }
    const summary = [
      `the Next.js floor app on a phone (Lighthouse ${auditor.version}; the dashboard's targets: LCP <= ${PHONE_TARGETS.lcpMs / 1000} s,` +
        ` TBT <= ${PHONE_TARGETS.tbtMs} ms):`,
      ...Object.entries(audits).map(([pathname, audit]) => auditLine(pathname, audit)),
      `    TBT of the floor app's pages against the target: ${Object.values(audits)
        .map((audit) => `${audit.tbtMs} ms (${round(audit.tbtMs / PHONE_TARGETS.tbtMs, 2)} ×)`)
        .join(", ")}`,
    ];
    return { summary, results: { pages: audits } };
  },
};
