"use client";

import { useArmedAfterAppearing } from "@/lib/client/deliberate-click";
import { useEndSessions, useSignedInSessions } from "@/lib/client/signed-in-sessions";
import type { SignedInSessionView } from "@/lib/contract/signed-in-sessions";
import { formatTimeAgo } from "@/lib/format/relative";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";

function useDeviceName(): (session: SignedInSessionView) => string {
  const { messages } = useI18n();
  return (session) => {
    if (!session.browser) return messages.sessions.unknownBrowser;
    return session.system
      ? interpolate(messages.sessions.browserOn, { browser: session.browser, system: session.system })
      : session.browser;
  };
}

/** "Where you're signed in": this device first, then the member's other sessions, each of which can be signed out. */
export function SignedInSessions() {
  const { messages, formatLocale, now } = useI18n();
  const query = useSignedInSessions();
  const end = useEndSessions();
  const armed = useArmedAfterAppearing();
  const deviceName = useDeviceName();

  if (query.isPending) return <LoadingState label={messages.sessions.loading} />;
  if (query.isError)
    return (
      <ErrorPanel title={messages.sessions.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );

  const sessions = query.data.sessions;
  const others = sessions.filter((session) => !session.current);
  const relative = (time: string) => formatTimeAgo(time, now, formatLocale, messages.sessions.justNow);
  // Never active before signing in.
  const lastActive = (session: SignedInSessionView) =>
    session.lastActiveAt < session.signedInAt ? session.signedInAt : session.lastActiveAt;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-fg-muted">{messages.sessions.intro}</p>
      <ul className="flex flex-col divide-y divide-line">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="font-medium break-words text-fg">
                {deviceName(session)}
                {session.current ? <span className="ml-2 text-sm font-normal text-ok-fg">{messages.sessions.thisDevice}</span> : null}
              </p>
              <p className="text-sm text-fg-muted">
                {session.embedded ? messages.sessions.embedded : messages.sessions.ownTab} ·{" "}
                <time dateTime={session.signedInAt} className="whitespace-nowrap">
                  {interpolate(messages.sessions.signedInAt, { time: relative(session.signedInAt) })}
                </time>
                {session.current ? null : (
                  <>
                    {" · "}
                    <time dateTime={lastActive(session)} className="whitespace-nowrap">
                      {interpolate(messages.sessions.lastActive, { time: relative(lastActive(session)) })}
                    </time>
                  </>
                )}
              </p>
            </div>
            {session.current ? null : (
              <button
                type="button"
                className="btn btn-secondary self-start sm:self-auto"
                aria-label={interpolate(messages.sessions.signOutThereLabel, {
                  device: deviceName(session),
                  time: relative(session.signedInAt),
                })}
                disabled={!armed || end.isPending}
                onClick={() => end.mutate({ id: session.id })}
              >
                {messages.sessions.signOutThere}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length === 0 ? <p className="text-fg-muted">{messages.sessions.onlyHere}</p> : null}
      {others.length > 0 ? (
        <button
          type="button"
          className="btn btn-secondary self-start"
          disabled={!armed || end.isPending}
          onClick={() => end.mutate({ others: true })}
        >
          {messages.sessions.signOutEverywhereElse}
        </button>
      ) : null}
      <div aria-live="polite">
        {end.isSuccess ? <p role="status">{end.data.complete ? messages.sessions.ended : messages.sessions.endedIncomplete}</p> : null}
        <ActionFailedAlert error={end.error} message={messages.sessions.failed} className="text-sm" />
      </div>
    </div>
  );
}
