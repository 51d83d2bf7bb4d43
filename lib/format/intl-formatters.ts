import { boundedMemory } from "./bounded-memory";

/**
 * Intl formatters made once per locale and options, then shared. Constructing an Intl.DateTimeFormat
 * costs tens of microseconds (ICU resolves the locale, the calendar and the time zone), formatting with
 * one a small fraction of that, and a page view renders several dates per course, on the server and
 * again in the browser (docs/performance.md, Page views). A formatter is immutable, so one
 * instance serves every request and render. The keys are few (two languages, the members' time zones,
 * a handful of option sets); past MAX_FORMATTERS the cache starts over, so it stays bounded whatever
 * time zones arrive.
 */
export const MAX_FORMATTERS = 500;

// Keys name a kind, a locale and the options (with a time zone Intl checked): a few hundred characters at most.
const formatters = boundedMemory<Intl.DateTimeFormat | Intl.Collator | Intl.RelativeTimeFormat>(MAX_FORMATTERS, 1024);

function shared<T extends Intl.DateTimeFormat | Intl.Collator | Intl.RelativeTimeFormat>(
  kind: string,
  locale: string,
  options: object,
  make: () => T,
): T {
  // Options Intl refuses (an unknown time zone) throw in `make`, as `new` would, and store nothing.
  return formatters.get(`${kind} ${locale} ${JSON.stringify(options)}`, make) as T;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return shared("date", locale, options, () => new Intl.DateTimeFormat(locale, options));
}

export function collator(locale: string, options: Intl.CollatorOptions): Intl.Collator {
  return shared("collator", locale, options, () => new Intl.Collator(locale, options));
}

export function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return shared("relative", locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

/** How many formatters are kept (for tests). */
export function sharedFormatterCount(): number {
  return formatters.size;
}

/**
 * Intl's text with plain spaces where ICU writes thin (U+2009) or narrow no-break (U+202F) ones. Node's ICU
 * keeps them in ranges ("8:00 – 9:30 PM", "Sat, 5 Dec – Sun, 6 Dec 2026") where Chromium's V8 writes plain
 * spaces, and the server's HTML must be the browser's first render to the character (React's hydration).
 * A time and its AM or PM are then joined by a no-break space again, on both sides alike: on a phone "12:00"
 * never ends a line with "PM" starting the next.
 */
export function withPlainSpaces(text: string): string {
  return text.replace(/[\u2009\u202f]/g, " ").replace(/(\d) ([AP]M)\b/g, "$1\u00a0$2");
}
