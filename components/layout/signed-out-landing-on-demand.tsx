"use client";

import { lazy, type ComponentProps } from "react";

import type { SignedOutLanding } from "./signed-out-landing";

const Landing = lazy(() => import("./signed-out-landing").then((module) => ({ default: module.SignedOutLanding })));

/**
 * The signed-out landing as a member page shows it without a session (app/_lib/member-page.tsx), in a
 * chunk of its own: a signed-in member, who never sees it, no longer loads it with every member page
 * (docs/performance.md, First-load JavaScript). The server renders it into the HTML as before; the browser
 * fetches the chunk while it hydrates such a page.
 */
export function SignedOutLandingOnDemand(props: ComponentProps<typeof SignedOutLanding>) {
  return <Landing {...props} />;
}
