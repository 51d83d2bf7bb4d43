import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { LOCALES, type Locale } from "@/lib/i18n/locales";

export interface MessageText {
  locale: Locale;
  /** Where the text is: its module, export and dotted key ("overview.ts OVERVIEW_WORDS.coursesLeftOut"). */
  key: string;
  text: string;
}

const MESSAGES_DIR = fileURLToPath(new URL("../../lib/i18n/messages/", import.meta.url));

/** The dictionaries' exports of one language: `en` and `zhTW` (en.ts, zh-TW.ts). */
const WHOLE_DICTIONARIES: Readonly<Record<string, Locale>> = { en: "en", zhTW: "zh-TW" };

function textsOf(node: unknown, path: string): { key: string; text: string }[] {
  if (typeof node === "string") return [{ key: path, text: node }];
  if (node && typeof node === "object") return Object.entries(node).flatMap(([key, value]) => textsOf(value, `${path}.${key}`));
  return [];
}

/**
 * Every text of every module in lib/i18n/messages, read from the folder, so a module added there is checked
 * too: the two dictionaries and each set of words kept apart from them (`{ en, "zh-TW" }`). A module
 * exporting words in another shape throws, rather than having its texts left unchecked.
 */
export async function allMessageTexts(): Promise<MessageText[]> {
  const texts: MessageText[] = [];
  for (const file of readdirSync(MESSAGES_DIR)
    .filter((name) => name.endsWith(".ts"))
    .sort()) {
    const exported = (await import(`${MESSAGES_DIR}${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exported)) {
      const wholeDictionary = WHOLE_DICTIONARIES[name];
      if (wholeDictionary) {
        texts.push(...textsOf(value, `${file} ${name}`).map((entry) => ({ locale: wholeDictionary, ...entry })));
        continue;
      }
      const byLocale = value as Partial<Record<Locale, unknown>>;
      if (!value || typeof value !== "object" || Object.keys(value).sort().join() !== [...LOCALES].sort().join()) {
        throw new Error(`${file} exports ${name}, which is neither a dictionary nor words by language.`);
      }
      for (const locale of LOCALES) {
        texts.push(...textsOf(byLocale[locale], `${file} ${name}.${locale}`).map((entry) => ({ locale, ...entry })));
      }
    }
  }
  return texts;
}
