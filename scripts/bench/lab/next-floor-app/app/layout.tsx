import Link from "next/link";
import type { ReactNode } from "react";

/**
 * A root layout with nothing of the dashboard's: no fonts, styles, providers, messages or CSP. Its links
 * are Next.js links, as the dashboard's tabs are: a click is the client router's RSC request.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav aria-label="Pages">
          <Link href="/static">Static</Link> <Link href="/dynamic">Dynamic</Link> <Link href="/dynamic-list">List</Link>{" "}
          <Link href="/member-list">Member list</Link> <Link href="/query-list">Query list</Link>
        </nav>
        <main>{children}</main>
      </body>
    </html>
  );
}
