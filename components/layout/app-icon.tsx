/**
 * The app's icon, a mortarboard, drawn inline in the header so that its tile takes the theme's accent
 * colour. `public/icon.svg` (the tab's and the home screen's icon) draws the same shapes in the default
 * accent; tests/unit/ui/app-icon.test.ts keeps the two alike.
 */
export function AppIcon({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" className={className}>
      <rect width="64" height="64" rx="14" className="fill-accent" />
      <path d="M14 22 32 13l18 9-18 9z" fill="#fff" />
      <path d="M21 28v9c0 4 5 8 11 8s11-4 11-8v-9l-11 5.5z" fill="#fff" />
      <rect x="47" y="22" width="3" height="14" rx="1.5" fill="#fff" />
    </svg>
  );
}
