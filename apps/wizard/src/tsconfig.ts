/** create-next-app's TypeScript compiler options, without its `@/*` alias. */
const NEXT_COMPILER_OPTIONS = {
  target: "ES2017",
  lib: ["dom", "dom.iterable", "esnext"],
  allowJs: true,
  skipLibCheck: true,
  strict: true,
  noEmit: true,
  esModuleInterop: true,
  module: "esnext",
  moduleResolution: "bundler",
  resolveJsonModule: true,
  isolatedModules: true,
  jsx: "react-jsx",
  incremental: true,
  plugins: [{ name: "next" }],
} as const;

/** create-next-app's `include`: the project's TypeScript files and the types Next.js generates. */
const NEXT_INCLUDE = ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts", "**/*.mts"] as const;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The `tsconfig.json` create-next-app writes with `--typescript`: its settings, with `@/*` mapped to
 * the source folder (`""` or `"src/"`).
 */
export function newTsconfig(sourceDir: "" | "src/"): string {
  return json({
    compilerOptions: { ...NEXT_COMPILER_OPTIONS, paths: { "@/*": [`./${sourceDir}*`] } },
    include: NEXT_INCLUDE,
    exclude: ["node_modules"],
  });
}

/**
 * The `tsconfig.json` that brings TypeScript to a JavaScript project whose `jsconfig.json` maps `@/*`:
 * it extends that file, so the project's own settings (its aliases among them) stay where they are and
 * keep applying, and adds create-next-app's TypeScript settings (`allowJs` keeps the project's
 * JavaScript compiling unchecked). Next.js leaves a tsconfig.json that extends another as it is.
 */
export function tsconfigExtending(jsconfig: string): string {
  return json({
    extends: `./${jsconfig}`,
    compilerOptions: NEXT_COMPILER_OPTIONS,
    include: NEXT_INCLUDE,
    exclude: ["node_modules"],
  });
}
