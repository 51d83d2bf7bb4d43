"use client";

import "./globals.css";

import { CrashPage } from "@/components/layout/crash-page";

/** Replaces the whole document when even the root layout failed: the dashboard's style, never Next's default page. */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <CrashPage onRetry={reset} />
      </body>
    </html>
  );
}
