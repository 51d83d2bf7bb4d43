/**
 * Where the browser suites find the app and the sandbox: the dashboard on `localhost`, the site on
 * `127.0.0.1`, so that the two are different sites. E2E_APP_PORT and E2E_SITE_PORT let two checkouts run
 * their journeys side by side on one machine; both browser suites read them the same way.
 */
export const APP_URL = `http://localhost:${process.env.E2E_APP_PORT ?? "3100"}`;
export const SITE_URL = `http://127.0.0.1:${process.env.E2E_SITE_PORT ?? "4100"}`;
/** The sandbox under its other loopback name: another site than the dashboard's `localhost`. */
export const SITE_URL_AS_LOCALHOST = SITE_URL.replace("127.0.0.1", "localhost");
/** The site's "My learning" page, which embeds the dashboard. */
export const HOST_PAGE = `${SITE_URL}/my-learning`;
