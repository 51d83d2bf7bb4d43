/**
 * What separates two facts on one line ("Painting skies · 12:34", "Fri, Dec 25 · All day", "In its own tab ·
 * Signed in just now"). The no-break space before the dot keeps it at the end of the line it follows: a line
 * that wraps on a phone or in the site's narrow panel never starts with a "·" a student would read as a bullet.
 */
export const FACT_SEPARATOR = "\u00a0· ";
