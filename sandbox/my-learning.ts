/**
 * The site's "My learning" page, with the member companion dashboard embedded as a panel beside the
 * lessons, the way an operator embeds it on a real site. It shows embedded mode running locally.
 */
import type { Hono } from "hono";

import { currentSession } from "./authorize";
import { findCourse } from "./data/catalog";
import { html, page } from "./html";
import type { SandboxState } from "./state";

const FEATURED_COURSES = ["watercolor-foundations", "data-analysis-with-python", "mandarin-for-travelers"];

export const MY_LEARNING_PATH = "/my-learning";
/** The page's one script: it sizes the dashboard's frame to the height the dashboard reports. */
export const PANEL_SCRIPT_PATH = "/my-learning/panel.js";

/**
 * How a site uses the dashboard's height message (README, "Embedding"): accept it only from the frame's
 * own window and the dashboard's origin, only in its documented shape, and size the frame to it, so the
 * panel never scrolls inside the page.
 */
const PANEL_SCRIPT = `"use strict";
(() => {
  const frame = document.querySelector("iframe[data-companion-dashboard]");
  if (!frame) return;
  const dashboardOrigin = new URL(frame.src).origin;
  // Back (from a lecture the panel's Resume opened) and reload find the frame as tall as it was before its
  // content arrives, so the browser can restore the page's scroll position, and the course is in view again.
  const kept = history.state && history.state.companionDashboardHeight;
  if (typeof kept === "string" && /^[0-9]+px$/.test(kept)) frame.style.height = kept;
  window.addEventListener("message", (event) => {
    if (event.origin !== dashboardOrigin || event.source !== frame.contentWindow) return;
    const message = event.data;
    if (!message || message.type !== "companion-dashboard:height" || !Number.isFinite(message.height)) return;
    const height = Math.min(Math.max(Math.round(message.height), 200), 20000);
    // The frame's own border is outside its content: add it.
    frame.style.height = height + (frame.offsetHeight - frame.clientHeight) + "px";
    try {
      history.replaceState({ ...history.state, companionDashboardHeight: frame.style.height }, "");
    } catch {
      // Safari refuses more than 100 replaceState calls in 30 s: the frame is sized all the same.
    }
  });
})();
`;

/**
 * What the framed dashboard may do: run its scripts on its own origin, submit forms, open the sign-in popup,
 * navigate the top page on a click, and ask for storage access on a click.
 */
const FRAME_SANDBOX = [
  "allow-scripts",
  "allow-same-origin",
  "allow-forms",
  "allow-popups",
  "allow-popups-to-escape-sandbox",
  "allow-top-navigation-by-user-activation",
  "allow-storage-access-by-user-activation",
].join(" ");

export function registerMyLearningPage(app: Hono, state: SandboxState): void {
  app.get(PANEL_SCRIPT_PATH, (c) => c.body(PANEL_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  app.get(MY_LEARNING_PATH, (c) => {
    const signedIn = currentSession(c, state);
    const courses = FEATURED_COURSES.map((slug) => findCourse(slug)).filter((course) => course !== undefined);
    const dashboard = `${state.dashboardOrigin}/`;
    const greeting = signedIn
      ? html`Welcome back, <strong>${signedIn.member.name}</strong>.`
      : "Pick up your lessons, and see everything about your account in the panel.";
    const body = html`<h1>My learning</h1>
<p>${greeting}</p>
<div class="my-learning">
  <section aria-labelledby="lessons-title">
    <h2 id="lessons-title">Lessons</h2>
    <ul>${courses.map((course) => html`<li><a href="/courses/${course.slug}">${course.name}</a></li>`)}</ul>
  </section>
  <section aria-labelledby="panel-title" class="panel">
    <h2 id="panel-title">Your account</h2>
    <iframe
      data-companion-dashboard
      src="${dashboard}"
      title="Member dashboard"
      sandbox="${FRAME_SANDBOX}"
      allow="storage-access; clipboard-write"
      loading="eager"></iframe>
  </section>
</div>
<script src="${PANEL_SCRIPT_PATH}"></script>`;
    const rendered = page("My learning", body);
    // This page frames the dashboard's origin, and nothing else.
    c.header(
      "Content-Security-Policy",
      `default-src 'self'; style-src 'unsafe-inline'; img-src 'self'; frame-src ${state.dashboardOrigin}; frame-ancestors 'none'`,
    );
    return c.html(
      rendered.body.replace(
        "</style>",
        "main{max-width:76rem}.my-learning{display:grid;gap:1.5rem}" +
          "@media(min-width:60rem){.my-learning{grid-template-columns:1fr 28rem}}" +
          ".panel iframe{display:block;width:100%;height:36rem;border:1px solid #e2e8f0;border-radius:.5rem;background:#fff}</style>",
      ),
    );
  });
}
