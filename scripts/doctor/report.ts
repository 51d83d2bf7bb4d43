/** How the doctor's findings are printed: a checklist for people, or JSON for scripts. */
import type { CheckResult, CheckStatus } from "./checks";
import { hasFailure } from "./run";
import type { DoctorReport } from "./run";

export interface Summary {
  pass: number;
  warn: number;
  fail: number;
}

export function summarize(checks: readonly CheckResult[]): Summary {
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  return { pass: count("PASS"), warn: count("WARN"), fail: count("FAIL") };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** One line per check: `PASS  Title: reason`, then the information lines and a summary. */
export function formatText(report: DoctorReport): string {
  const lines = [`Site Access doctor: ${report.site}`, ""];
  for (const check of report.checks) lines.push(`${check.status}  ${check.title}: ${check.detail}`);
  lines.push("");
  for (const line of report.info) lines.push(`INFO  ${line}`);
  const summary = summarize(report.checks);
  lines.push(
    "",
    `${plural(summary.pass, "check")} passed, ${plural(summary.warn, "warning")}, ${plural(summary.fail, "failure")}.` +
      (summary.fail > 0 ? " The dashboard will not work with this site until the failures are fixed." : ""),
  );
  return `${lines.join("\n")}\n`;
}

export function formatJson(report: DoctorReport): string {
  const body = {
    site: report.site,
    redirectUri: report.redirectUri,
    ok: !hasFailure(report),
    summary: summarize(report.checks),
    checks: report.checks,
    info: report.info,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
