import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import pluginQuery from "@tanstack/eslint-plugin-query";
import checkFile from "eslint-plugin-check-file";
import tseslint from "typescript-eslint";

const serverOnlyModules = [
  "@/lib/auth/*",
  "@/lib/site/*",
  "@/lib/config",
  "@/lib/config/*",
  "@/lib/session/*",
  "@/lib/http/*",
  "@/lib/account-api",
  "@/lib/account-api/*",
];

export default tseslint.config(
  { ignores: ["**/.next/**", "node_modules/**", "**/next-env.d.ts", "test-results/**", "playwright-report/**", "artifacts/**"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  ...pluginQuery.configs["flat/recommended"],
  {
    // Files and folders are kebab-case (CONVENTIONS.md habit 8). Next.js's dynamic ([resource]), private (_lib)
    // and group ((member)) route folders keep their marks; message files are named by their locale tag (zh-TW).
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["lib/i18n/messages/**"],
    plugins: { "check-file": checkFile },
    rules: {
      "check-file/filename-naming-convention": ["error", { "**/*.{ts,tsx,mjs}": "KEBAB_CASE" }, { ignoreMiddleExtensions: true }],
      "check-file/folder-naming-convention": [
        "error",
        { "{app,components,lib,scripts,sandbox,tests,docs}/**/!(\\[*\\]|_*)/": "KEBAB_CASE" },
        { ignoreWords: ["(member)", "(public)"] },
      ],
    },
  },
  {
    // No line over Prettier's printWidth (140, .prettierrc.json). Prettier wraps code but leaves long strings,
    // template literals, comments and JSX text alone: this rule catches those. Split a string with `+`, a
    // template literal with a line continuation (a backslash ending the line adds nothing to its text).
    files: ["**/*.{ts,tsx,mjs}"],
    rules: { "max-len": ["error", { code: 140, tabWidth: 2 }] },
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  {
    // The hard server boundary (CONVENTIONS.md habit 2): client components and client-safe helpers
    // never import a module that touches tokens, secrets or the site.
    files: ["components/**/*.{ts,tsx}", "lib/client/**/*.{ts,tsx}", "lib/format/**/*.{ts,tsx}", "lib/i18n/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: serverOnlyModules, message: "Client-safe code must not import server-only modules." }] },
      ],
    },
  },
  {
    // The session's secrets stay in lib/session: everything else seals and opens through lib/session/seal.ts's
    // functions, never with the passwords themselves. (Not the client-safe files above: they keep their own rule.)
    files: [
      "app/**/*.{ts,tsx}",
      "lib/{account-api,auth,config,contract,http,log,server,site,types}/**/*.ts",
      "proxy.ts",
      "scripts/**/*.ts",
      "tests/**/*.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@/lib/session/seal",
              importNames: ["sealPasswords"],
              message: "Seal with sealWithSessionSecret and open with openSessionSeal; the passwords stay in lib/session.",
            },
          ],
        },
      ],
    },
  },
  {
    // One folder per upstream adapter, imports one way (CONVENTIONS.md habit 12): the Account API adapter
    // (lib/account-api) depends on the transport to the site (lib/site), never the reverse.
    files: ["lib/site/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/account-api", "@/lib/account-api/*", "../account-api/*"],
              message: "lib/site is the transport: it never imports the adapter.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["scripts/**/*.ts", "sandbox/**/*.ts", "tests/**/*.ts", "*.config.*"],
    rules: { "no-console": "off" },
  },
);
