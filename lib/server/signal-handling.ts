/**
 * Next.js's own SIGTERM handler exits with 143 and knows nothing of our dependencies. With this variable
 * set to 1 (by `npm start` and the Dockerfile) it stands aside and lib/server/graceful-shutdown.ts runs.
 */
export const MANUAL_SIGNAL_HANDLING = "NEXT_MANUAL_SIG_HANDLE";
