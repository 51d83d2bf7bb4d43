"use client";

import type { ReactNode } from "react";
import { useSession } from "@/lib/client/hooks";
import { formatDateTime } from "@/lib/format/datetime";
import { describeTimeZone } from "@/lib/format/time-zone-name";
import { describeScope, interpolate } from "@/lib/i18n";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { SessionView } from "@/lib/contract/session";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { Mark } from "@/components/ui/mark";
import { OpensArrow } from "@/components/ui/opens-arrow";
import { PageHeader } from "@/components/ui/page-header";
import { PageSection } from "@/components/ui/page-section";
import { useSiteInfo } from "@/components/layout/site-info";
import { TextKeptTogether } from "@/components/ui/text-kept-together";
import { AssistantDisclosure } from "./assistant-disclosure";
import { LanguageSwitch } from "./language-switch";
import { RevokeAccess } from "./revoke-access";
import { SignOutButton } from "./sign-out-button";
import { SignedInSessions } from "./signed-in-sessions";

function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <PageSection id={id} title={title} card>
      {children}
    </PageSection>
  );
}

function DetailsList({ rows }: { rows: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-sm font-medium text-fg-muted sm:text-base">{row.label}</dt>
          {/* A value (an email address) breaks where it must, so the card's one column on a phone stays in the card. */}
          <dd className="mb-2 text-fg wrap-anywhere sm:mb-0">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Who is signed in. */
function AccountDetails({ session }: { session: SessionView }) {
  const words = useWords(SETTINGS_WORDS);
  return (
    <DetailsList
      rows={[
        { label: words.name, value: session.name },
        { label: words.email, value: session.email },
      ]}
    />
  );
}

/** What the app may do, in words (the codes behind "Details"), the site by its name, and when access was granted, with its zone. */
function AccessDetails({ session }: { session: SessionView }) {
  const { messages, formatLocale, timeZone, now } = useI18n();
  const words = useWords(SETTINGS_WORDS);
  const site = useSiteInfo();
  const siteName = site?.name ?? session.site.replace(/^https?:\/\//, "");
  const grantedTime = formatDateTime(session.grantedAt, { formatLocale, timeZone });
  const zone = describeTimeZone(timeZone, formatLocale, now);
  const granted = interpolate(words.timeInZone, { time: grantedTime, zone });
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-2">
        {session.scopes.map((scope) => (
          <li key={scope} className="flex items-start gap-2 text-fg">
            <Mark shape="check" className="mt-[0.25em] text-ok-fg" />
            {/* A long word ("registrations") breaks rather than pass the card's edge, with larger text on a phone. */}
            <span className="min-w-0 wrap-break-word">{describeScope(scope, messages)}</span>
          </li>
        ))}
      </ul>
      <details className="group text-sm text-fg-muted">
        <summary className="inline-flex min-h-11 cursor-pointer items-center gap-1.5 underline-offset-4 hover:underline">
          <OpensArrow />
          {words.details}
        </summary>
        <p>{words.permissionCodes}:</p>
        <ul className="flex flex-wrap gap-2">
          {session.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </details>
      <DetailsList
        rows={[
          {
            label: words.site,
            value: (
              // A target of its own: 44 px tall on a phone, 24 px from sm up (WCAG 2.2, 2.5.8), as the events' links.
              <a
                className="inline-flex min-h-11 items-center text-accent underline wrap-anywhere sm:min-h-6"
                href={session.site}
                target="_top"
              >
                {siteName}
              </a>
            ),
          },
          {
            label: words.grantedAt,
            value: (
              <time dateTime={session.grantedAt}>
                <TextKeptTogether text={granted} pieces={[grantedTime, zone]} />
              </time>
            ),
          },
        ]}
      />
    </div>
  );
}

/**
 * The Settings page, in the order a student needs it: who is signed in, the language, Sign out, what the
 * app may do and since when, an AI assistant (beta, collapsed), and last Revoke access. The language
 * and Sign out work even when the session details fail to load.
 */
export function SettingsView() {
  const { messages } = useI18n();
  const words = useWords(SETTINGS_WORDS);
  const query = useSession();

  const pendingOrError = (title: string) =>
    query.isPending ? (
      <LoadingState label={messages.app.loading} />
    ) : (
      <ErrorPanel title={title} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );

  return (
    <div>
      <PageHeader title={messages.nav.settings} />
      <div className="flex flex-col gap-6">
        <SettingsSection id="settings-account" title={words.signedInAs}>
          {query.isSuccess ? <AccountDetails session={query.data} /> : pendingOrError(messages.errors.session)}
        </SettingsSection>
        <SettingsSection id="settings-language" title={words.language}>
          <LanguageSwitch />
        </SettingsSection>
        <SettingsSection id="settings-sign-out" title={messages.accountMenu.signOut}>
          <SignOutButton />
        </SettingsSection>
        {query.isSuccess ? (
          <SettingsSection id="settings-permissions" title={words.permissions}>
            <AccessDetails session={query.data} />
          </SettingsSection>
        ) : null}
        <AssistantDisclosure />
        <SettingsSection id="settings-sessions" title={messages.sessions.title}>
          <SignedInSessions />
        </SettingsSection>
        <SettingsSection id="settings-revoke" title={words.revokeTitle}>
          <RevokeAccess />
        </SettingsSection>
      </div>
    </div>
  );
}
