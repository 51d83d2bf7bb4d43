"use client";

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";

import { useDeliberateClick } from "@/lib/client/deliberate-click";
import { useEndSessions, useSignedInSessions } from "@/lib/client/signed-in-sessions";
import type { EndSessionsRequest, SignedInSessionView } from "@/lib/contract/signed-in-sessions";
import { formatTimeAgo } from "@/lib/format/relative";
import { FACT_SEPARATOR } from "@/lib/format/separator";
import { interpolate } from "@/lib/i18n";
import { SESSIONS_WORDS } from "@/lib/i18n/messages/sessions";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { focusOnMount } from "@/components/settings/sign-out-button";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { KEPT_TOGETHER } from "@/components/ui/text-kept-together";

function useDeviceName(): (session: SignedInSessionView) => string {
  const words = useWords(SESSIONS_WORDS);
  return (session) => {
    if (!session.browser) return words.unknownBrowser;
    return session.system ? interpolate(words.browserOn, { browser: session.browser, system: session.system }) : session.browser;
  };
}

/**
 * A sign-in ended from its own row ("Sign out there"). Its row stays where it was for as long as the list is
 * shown, the answer in place of its button and as tall: the rows below do not move up under the finger, where a
 * quick second tap would end the next sign-in.
 */
interface EndedInPlace {
  session: SignedInSessionView;
  /** Its place in the list as shown when it was pressed. */
  index: number;
  complete: boolean;
}

/** A row of the list: a sign-in, and how it ended when it was ended from its row. */
interface SessionRow {
  session: SignedInSessionView;
  ended?: EndedInPlace;
}

/** The rows to show: the sign-ins the list has, with those ended from their rows back in their places. */
function withEndedInPlace(sessions: readonly SignedInSessionView[], ended: readonly EndedInPlace[]): SessionRow[] {
  const endedIds = new Set(ended.map((entry) => entry.session.id));
  const rows: SessionRow[] = sessions.filter((session) => !endedIds.has(session.id)).map((session) => ({ session }));
  for (const entry of [...ended].sort((a, b) => a.index - b.index)) {
    rows.splice(Math.min(entry.index, rows.length), 0, { session: entry.session, ended: entry });
  }
  return rows;
}

/** Where a press is answered: the row of the sign-in it named, or "Sign out everywhere else". */
const EVERYWHERE_ELSE = "others";

function placeOf(target: EndSessionsRequest): string {
  return "id" in target ? target.id : EVERYWHERE_ELSE;
}

/** The heights of the answers above `pressed` (by their place), which its press takes away. */
function answersAbove(root: HTMLElement | null, pressed: HTMLElement): Record<string, number> {
  const above: Record<string, number> = {};
  for (const region of root?.querySelectorAll<HTMLElement>("[data-answer-for]") ?? []) {
    const height = region.getBoundingClientRect().height;
    if (height > 0 && region.compareDocumentPosition(pressed) & Node.DOCUMENT_POSITION_FOLLOWING) {
      above[region.dataset.answerFor!] = height;
    }
  }
  return above;
}

/**
 * Keeps the control pressed where it is on screen (under the finger, for a second press) when the answers
 * above it go: the page scrolls up by what they took when it can; otherwise (near the page's top, or in
 * the site's panel, whose frame is sized to its content and never scrolls) their places stay, empty
 * (`held`, a height by place), until a press above them or a sign-in ended.
 */
function useSteadyPress(list: RefObject<HTMLElement | null>) {
  const [held, setHeld] = useState<Readonly<Record<string, number>>>({});
  const pressedAt = useRef<{ control: HTMLElement; top: number } | null>(null);
  useLayoutEffect(() => {
    const pressed = pressedAt.current;
    pressedAt.current = null;
    if (!pressed) return;
    const moved = pressed.control.getBoundingClientRect().top - pressed.top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  });
  const steady = (pressed: HTMLElement) => {
    const above = answersAbove(list.current, pressed);
    const taken = Object.values(above).reduce((sum, height) => sum + height, 0);
    if (taken > 0 && window.scrollY >= taken) {
      pressedAt.current = { control: pressed, top: pressed.getBoundingClientRect().top };
      setHeld({});
    } else {
      setHeld(above);
    }
  };
  return { held, steady };
}

/**
 * The answer to a press, under the control pressed: "too soon", or why ending failed. Its live region is
 * on the page before an answer is put in it, so a screen reader announces the answer; scrolled into view
 * when it lands under the phone's tab bar. A later press further down empties it, keeping its height
 * (`heldHeight`) when the page cannot scroll to make up for it.
 */
function PressAnswer({
  place,
  tooSoon,
  error,
  heldHeight,
  className,
  children,
}: {
  place: string;
  tooSoon: boolean;
  error: unknown;
  heldHeight: number | undefined;
  className?: string;
  children?: ReactNode;
}) {
  const { messages } = useI18n();
  const words = useWords(SESSIONS_WORDS);
  const region = useRef<HTMLDivElement>(null);
  const answered = tooSoon || (error !== null && error !== undefined);
  useEffect(() => {
    if (answered) region.current?.scrollIntoView({ block: "nearest" });
  }, [answered, error]);
  return (
    <div
      aria-live="polite"
      ref={region}
      data-answer-for={place}
      className="flow-root"
      style={heldHeight === undefined ? undefined : { minHeight: heldHeight }}
    >
      {tooSoon ? (
        <p role="status" className={className}>
          {messages.sessions.signOutTooSoon}
        </p>
      ) : null}
      {children}
      <ActionFailedAlert error={error} message={words.failed} className={className ? `${className} text-sm` : "text-sm"} />
    </div>
  );
}

/**
 * "Where you're signed in": this device first, then the member's other sessions, each of which can be signed out.
 *
 * "Sign out there" and "Sign out everywhere else" are armed as the revoke confirmation is
 * (lib/client/deliberate-click.ts): nothing is signed out until the page has been in view, with focus, for
 * ARMING_DELAY_MS, so a double-click staged in another window that opens or raises Settings under the
 * pointer cannot end a session (double-clickjacking; OWASP Clickjacking Defense Cheat Sheet; ASVS 5
 * V3.4.6). The buttons keep their normal look meanwhile (aria-disabled, not faded): a press in that moment
 * ends nothing, is not queued, and a status line says so, in the sentence the panel's sign-out
 * confirmation uses (it is in the dictionaries already, so Settings' first-load JavaScript carries no more words).
 * That line, and the alert when ending fails, sit under the control pressed: on a phone a long list puts
 * its foot out of view of a row near the top. Only the newest press is answered, and the control pressed
 * stays under the finger when an answer above it goes (useSteadyPress). A sign-in ended from its row keeps
 * its row (EndedInPlace).
 */
export function SignedInSessions() {
  const { formatLocale, now } = useI18n();
  const words = useWords(SESSIONS_WORDS);
  const query = useSignedInSessions();
  const end = useEndSessions();
  const { armed, isArmedNow } = useDeliberateClick();
  const [tooSoonAt, setTooSoonAt] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const { held, steady } = useSteadyPress(list);
  const deviceName = useDeviceName();
  const result = useRef<HTMLParagraphElement>(null);
  const [endedInPlace, setEndedInPlace] = useState<readonly EndedInPlace[]>([]);
  const endedEverywhereElse = end.isSuccess && end.variables !== undefined && !("id" in end.variables);
  // "Sign out everywhere else" leaves with the last other row: focus goes to what happened, not to <body>
  // (WCAG 2.4.3). A row's own answer takes focus where its button was (focusOnMount).
  useEffect(() => {
    if (endedEverywhereElse) result.current?.focus();
  }, [endedEverywhereElse, end.data]);

  if (query.isPending) return <LoadingState label={words.loading} />;
  if (query.isError)
    return <ErrorPanel title={words.error} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;

  const rows = withEndedInPlace(query.data.sessions, endedInPlace);
  const others = rows.filter((row) => !row.session.current && !row.ended).map((row) => row.session);
  const relative = (time: string) => formatTimeAgo(time, now, formatLocale, words.justNow);
  // Never active before signing in.
  const lastActive = (session: SignedInSessionView) =>
    session.lastActiveAt < session.signedInAt ? session.signedInAt : session.lastActiveAt;
  const endDeliberately = (target: EndSessionsRequest, pressed: HTMLElement) => {
    // A press before the page has been in view for ARMING_DELAY_MS ends nothing (ASVS 5 V3.4.6).
    const early = !isArmedNow();
    steady(pressed);
    setTooSoonAt(early ? placeOf(target) : null);
    // The newest press is the one answered: an earlier failure, or the answer under Sign out everywhere else, goes.
    if (early) {
      end.reset();
      return;
    }
    const index = rows.findIndex((row) => "id" in target && row.session.id === target.id);
    end.mutate(target, {
      onSuccess: ({ complete }) =>
        setEndedInPlace((earlier) => {
          const row = rows[index];
          // Everywhere else: every other row goes, and the answer is said under its button.
          if (!row) return [];
          return [...earlier, { session: row.session, index, complete }];
        }),
    });
  };
  // Once every other sign-in has ended, their rows have gone and the list has changed anyway: no empty place is kept.
  const heldHeight = (place: string) => (endedEverywhereElse ? undefined : held[place]);
  // A failure for a row the list no longer has (it ended meanwhile) is said under "Sign out everywhere else".
  const failedPlace = end.isError && end.variables ? placeOf(end.variables) : null;
  const failedAt = failedPlace === null || others.some((session) => session.id === failedPlace) ? failedPlace : EVERYWHERE_ELSE;
  return (
    <div className="flex flex-col gap-3" ref={list}>
      <p className="text-fg-muted">{words.intro}</p>
      <ul className="flex flex-col divide-y divide-line">
        {rows.map(({ session, ended }) => (
          <li key={session.id} className="py-3">
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                {/* "This device" goes under the name when both do not fit on one line, flush with it (a margin
                    put it 8 px in). */}
                <p className="flex flex-wrap items-baseline gap-x-2 font-medium text-fg">
                  <span className="min-w-0 break-words">{deviceName(session)}</span>
                  {session.current ? <span className="text-sm font-normal text-ok-fg">{words.thisDevice}</span> : null}
                </p>
                <p className="text-sm text-fg-muted">
                  {session.embedded ? words.embedded : words.ownTab}
                  {FACT_SEPARATOR}
                  <time dateTime={session.signedInAt} className={KEPT_TOGETHER}>
                    {interpolate(words.signedInAt, { time: relative(session.signedInAt) })}
                  </time>
                  {session.current ? null : (
                    <>
                      {FACT_SEPARATOR}
                      <time dateTime={lastActive(session)} className={KEPT_TOGETHER}>
                        {interpolate(words.lastActive, { time: relative(lastActive(session)) })}
                      </time>
                    </>
                  )}
                </p>
              </div>
              {ended ? (
                <p role="status" ref={focusOnMount} tabIndex={-1} className="flex min-h-11 items-center text-fg outline-none">
                  {ended.complete ? words.ended : words.endedIncomplete}
                </p>
              ) : session.current ? null : (
                <button
                  type="button"
                  className="btn btn-secondary self-start sm:self-auto"
                  aria-label={interpolate(words.signOutThereLabel, {
                    device: deviceName(session),
                    time: relative(session.signedInAt),
                  })}
                  disabled={end.isPending}
                  aria-disabled={armed ? undefined : true}
                  onClick={(event) => endDeliberately({ id: session.id }, event.currentTarget)}
                >
                  {words.signOutThere}
                </button>
              )}
            </div>
            {session.current || ended ? null : (
              <PressAnswer
                place={session.id}
                tooSoon={tooSoonAt === session.id}
                error={failedAt === session.id ? end.error : null}
                heldHeight={heldHeight(session.id)}
                className="mt-2"
              />
            )}
          </li>
        ))}
      </ul>
      {others.length === 0 ? <p className="text-fg-muted">{words.onlyHere}</p> : null}
      {others.length > 0 ? (
        <button
          type="button"
          className="btn btn-secondary self-start"
          disabled={end.isPending}
          aria-disabled={armed ? undefined : true}
          onClick={(event) => endDeliberately({ others: true }, event.currentTarget)}
        >
          {words.signOutEverywhereElse}
        </button>
      ) : null}
      <PressAnswer
        place={EVERYWHERE_ELSE}
        tooSoon={tooSoonAt === EVERYWHERE_ELSE}
        error={failedAt === EVERYWHERE_ELSE ? end.error : null}
        heldHeight={heldHeight(EVERYWHERE_ELSE)}
      >
        {endedEverywhereElse ? (
          <p role="status" ref={result} tabIndex={-1} className="outline-none">
            {end.data.complete ? words.ended : words.endedIncomplete}
          </p>
        ) : null}
      </PressAnswer>
    </div>
  );
}
