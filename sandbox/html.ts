/**
 * Minimal HTML helpers for the sandbox pages: every interpolated value goes through `escapeHtml` (via the
 * `html` tag), and every page shares one accessible layout.
 *
 * Long markup lines in the sandbox's templates end in a backslash: a template literal's line continuation,
 * which adds nothing to the text (no line break, no space), so a page's bytes do not depend on where its
 * source lines wrap.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Markup that is already safe (produced by the `html` tag). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join("");
  return escapeHtml(String(value));
}

/** Tagged template that escapes every interpolation unless it is `SafeHtml`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(out);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a202c;background:#f7fafc}
header.site{background:#1a365d;color:#fff;padding:.75rem 1.5rem}
header.site a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:48rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin-top:0}
label{display:block;font-weight:600;margin-top:1rem}
input[type=email],input[type=password],input[type=text],textarea{width:100%;padding:.5rem;font:inherit;\
border:1px solid #a0aec0;border-radius:.375rem}
input[readonly]{background:#edf2f7;font-family:ui-monospace,monospace}
fieldset{border:1px solid #cbd5e0;border-radius:.375rem;margin-top:1rem;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.check{display:flex;gap:.5rem;align-items:baseline;margin:.25rem 0}.check label{display:inline;font-weight:400;margin:0}
ul.nav{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0;margin:0 0 1rem}
ul.nav a[aria-current=page]{font-weight:700}
.notice{border:1px solid #2f855a;background:#f0fff4;color:#22543d;padding:.75rem;border-radius:.375rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
code{overflow-wrap:anywhere}
button{font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #2c5282;background:#2c5282;color:#fff;\
cursor:pointer;margin-top:1rem}
button.secondary{background:#fff;color:#2c5282}
button.link{background:none;border:none;color:#2c5282;text-decoration:underline;padding:0;margin:0}
:focus-visible{outline:3px solid #f6ad55;outline-offset:2px}
.alert{border:1px solid #c53030;background:#fff5f5;color:#822727;padding:.75rem;border-radius:.375rem}
.muted{color:#4a5568;font-size:.9rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e2e8f0}
ul.scopes li{margin:.25rem 0}
.actions{display:flex;gap:.75rem}
`;

export function page(title: string, body: SafeHtml, options: { status?: number; lang?: string } = {}): { body: string; status: number } {
  // The sign-in and consent pages may speak 繁體中文 (sandbox/sign-in-words.ts); every other page English.
  const sandboxLabel = options.lang === "zh-TW" ? { short: "沙盒", long: "沙盒網站" } : { short: "sandbox", long: "sandbox site" };
  const document = html`<!doctype html>
<html lang="${options.lang ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Demo Academy (${sandboxLabel.short})</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header class="site"><a href="/">Demo Academy</a> <span class="muted" style="color:#cbd5e0">${sandboxLabel.long}</span></header>
<main>
${body}
</main>
</body>
</html>`;
  return { body: document.value, status: options.status ?? 200 };
}

/** The labelled email and password fields and the "Sign in" button of every sandbox sign-in form. */
export function signInFields(email: string | undefined, words: { email: string; password: string; signIn: string }): SafeHtml {
  return html`<label for="email">${words.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email ?? ""}">
<label for="password">${words.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${words.signIn}</button>`;
}

/** Formats seconds as m:ss or h:mm:ss. */
export function formatPosition(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
