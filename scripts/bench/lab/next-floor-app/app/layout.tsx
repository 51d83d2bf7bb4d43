import type { ReactNode } from "react";

/** A root layout with nothing of the dashboard's: no fonts, styles, providers, messages or CSP. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav aria-label="Pages">
          <a href="/static">Static</a> <a href="/dynamic">Dynamic</a> <a href="/dynamic-list">List</a>
        </nav>
        <main>{children}</main>
      </body>
    </html>
  );
}
