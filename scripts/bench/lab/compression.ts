/**
 * Lab section (`npm run bench -- --lab=compression`, issue 26): what compressing an answer costs the
 * dashboard. Each page, a tab click's RSC request (the headers Chromium sent) and the data route are asked
 * for twice in the same interleaved rounds: as a browser asks (its Accept-Encoding, which Next.js's
 * compression answers with gzip) and uncompressed (`identity`). The difference in the dashboard's CPU per
 * answer is what compressing costs the process: Next.js's `compression` middleware, Node's zlib, and their
 * effect on the rest of its work. None of it is the dashboard's code; the floor app (next-floor.ts) pays it
 * too. Each side's garbage-collection pause per answer is read beside its CPU (through the inspector), since
 * zlib's streams hold memory outside the JavaScript heap and could have made the collector work more.
 *
 * Beside them, what a member's first visit costs on top of its page view: the static files the Courses
 * page's HTML names (its stylesheet, the preloaded font, its scripts and hydration's), which a browser
 * with an empty cache fetches once per deployment. Next.js compresses them per request like any answer
 * (it keeps no compressed copy), so their CPU per cold load is printed both ways too. Each connection
 * asks for them in turn; the side's URL only gives the origin.
 */
import { PAGE_PATHS } from "../../../lib/contract/paths";
import { staticFilesNamedBy } from "../../../tests/support/static-files";
import { round, type BenchContext, type BenchSection } from "../context";
import { dashboardGet, runInterleaved, sideLine, type Side, type SideFigures } from "../interleaved";
import { captureBrowserRequests, type CapturedRequests } from "../page-views";
import { DATA_ROUTE_PATH } from "../sequential";

const DOCUMENT = { accept: "text/html,application/xhtml+xml" };

interface Answer {
  key: string;
  /** How the summary names it. */
  label: string;
  path: string;
  withSession: boolean;
  headers: Record<string, string>;
}

function answers({ rscCourses }: CapturedRequests): Answer[] {
  return [
    { key: "overview", label: PAGE_PATHS.overview, path: PAGE_PATHS.overview, withSession: true, headers: DOCUMENT },
    { key: "courses", label: PAGE_PATHS.courses, path: PAGE_PATHS.courses, withSession: true, headers: DOCUMENT },
    { key: "coursesRsc", label: "tab click to /courses", path: rscCourses.path, withSession: true, headers: rscCourses.headers },
    { key: "signedOut", label: PAGE_PATHS.signedOut, path: PAGE_PATHS.signedOut, withSession: false, headers: DOCUMENT },
    { key: "dataRoute", label: DATA_ROUTE_PATH, path: DATA_ROUTE_PATH, withSession: true, headers: { accept: "application/json" } },
  ];
}

const ENCODINGS = { compressed: "gzip, deflate, br, zstd", identity: "identity" };

/** `side`'s CPU time and bytes for fetching each of `files` once, as one cold load. */
function perColdLoad(side: SideFigures, files: number): string {
  return `${round((side.cpuMsPerRequest ?? Number.NaN) * files)} CPU ms, ${Math.round((side.bytesPerAnswer * files) / 1024)} KB`;
}

export const compressionCost: BenchSection = {
  name: "compression",
  title: "What compressing an answer costs the dashboard: each page, a tab click and the data route as a browser asks, and uncompressed",
  enabled: () => true,
  async run(context) {
    const coursesHtml = await fetch(`${context.target.appUrlIPv4}${PAGE_PATHS.courses}`, {
      headers: { cookie: context.member.header(), ...DOCUMENT },
    });
    const staticFiles = staticFilesNamedBy(await coursesHtml.text());
    if (!coursesHtml.ok || staticFiles.length === 0) {
      throw new Error(`no static files named by ${PAGE_PATHS.courses} (${coursesHtml.status})`);
    }
    const measured = answers(await captureBrowserRequests(context));
    const sides: Side[] = [
      ...measured.flatMap(({ key, path, withSession, headers }) =>
        Object.entries(ENCODINGS).map(([encoding, acceptEncoding]) => ({
          name: `${key} ${encoding}`,
          share: 1,
          dashboard: true,
          spec: dashboardGet(path, withSession, { ...headers, "accept-encoding": acceptEncoding }),
        })),
      ),
      ...Object.entries(ENCODINGS).map(([encoding, acceptEncoding]) => ({
        name: `static files ${encoding}`,
        share: 1,
        dashboard: true,
        spec: (benchContext: BenchContext, durationSeconds: number) => ({
          ...dashboardGet(PAGE_PATHS.courses, false, { "accept-encoding": acceptEncoding })(benchContext, durationSeconds),
          paths: staticFiles,
        }),
      })),
    ];
    const gcPauses = await (await context.inspector()).observeGcPauses();
    const { bySide, rounds, secondsPerSide } = await runInterleaved(
      context,
      sides,
      context.options.concurrentSeconds,
      context.options.pageWarmUpRequests,
      gcPauses.read,
    ).finally(gcPauses.stop);
    const summary = [
      `compression at ${context.options.connections} connections, ${secondsPerSide} s per side in ${rounds} interleaved rounds:`,
      ...measured.map(({ key, label }) => {
        const compressed = bySide[`${key} compressed`]!;
        const identity = bySide[`${key} identity`]!;
        const cost = (compressed.cpuMsPerRequest ?? Number.NaN) - (identity.cpuMsPerRequest ?? Number.NaN);
        return (
          `    ${label.padEnd(22)} ${compressed.cpuMsPerRequest} CPU ms/answer compressed (${compressed.bytesPerAnswer} B),` +
          ` ${identity.cpuMsPerRequest} uncompressed (${identity.bytesPerAnswer} B): compressing costs ${round(cost, 2)} ms an answer,` +
          ` ${round((cost / (compressed.cpuMsPerRequest ?? Number.NaN)) * 100)} % of it;` +
          ` paused for garbage collection ${compressed.gcPauseMsPerRequest} ms an answer compressed,` +
          ` ${identity.gcPauseMsPerRequest} uncompressed`
        );
      }),
      `    a first visit's ${staticFiles.length} static files (${PAGE_PATHS.courses}'s stylesheet, font and scripts), once each:` +
        ` ${perColdLoad(bySide["static files compressed"]!, staticFiles.length)} compressed,` +
        ` ${perColdLoad(bySide["static files identity"]!, staticFiles.length)} uncompressed`,
      ...sides.map((side) => sideLine(side.name, bySide[side.name]!)),
    ];
    return { summary, results: { rounds, secondsPerSide, staticFiles, bySide } };
  },
};
