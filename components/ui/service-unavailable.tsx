import { getMessages, type Locale } from "@/lib/i18n";

/**
 * A member page while the dashboard's shared state does not answer: the member is not signed out, only
 * asked to try again (a plain link, so it works before any script runs). It holds no state, so it is
 * rendered on the server alone and ships no JavaScript with every member page.
 */
export function ServiceUnavailable({ retryPath, locale }: { retryPath: string; locale: Locale }) {
  const messages = getMessages(locale);
  return (
    <div role="alert" className="card mx-auto flex max-w-xl flex-col items-start gap-4 p-6">
      <h1 className="text-2xl font-semibold text-fg">{messages.errors.temporarilyUnavailableTitle}</h1>
      <p className="text-fg">{messages.errors.temporarilyUnavailable}</p>
      <a className="btn btn-primary" href={retryPath}>
        {messages.errors.retry}
      </a>
    </div>
  );
}
