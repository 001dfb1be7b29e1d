/**
 * How every route's handler is bundled: the CDK stack passes these to `NodejsFunction` and
 * `npm run bench` hands the same values to esbuild, so the measured bundle is the deployed one.
 * Kept free of aws-cdk-lib imports so the bench stays light.
 */
export const functionBundling = {
  minify: true,
  sourceMap: true,
  /**
   * The map keeps the mappings (stack traces name our files and lines) but not a copy of every
   * source: the logger reads and parses the map when it logs the first error, and the
   * copies made it 2.2 times larger (create-payout-account: 1,214 KB → 556 KB).
   */
  sourcesContent: false,
  /** The Lambda runtime is nodejs24.x (docs/decisions/0090-node-24.md). */
  target: 'node24',
  /**
   * Provided by the Lambda Node.js runtime; measured to start faster than bundling the SDK
   * (`npm run bench -- bundles`, docs/decisions/0007-aws-sdk-external.md).
   */
  externalModules: ['@aws-sdk/*'],
  format: 'cjs',
} as const;

/**
 * The same options as esbuild's API takes them (the tests' and the bench's builds,
 * deployed-bundles.ts and scripts/bench/bundles.ts): what the CDK passes to esbuild's command line.
 */
export const esbuildFunctionOptions = {
  bundle: true,
  platform: 'node',
  format: functionBundling.format,
  target: functionBundling.target,
  minify: functionBundling.minify,
  sourcemap: functionBundling.sourceMap,
  sourcesContent: functionBundling.sourcesContent,
} as const;

/**
 * NODE_OPTIONS of every function, none now (the stack sets the variable only when this is not
 * empty). `--enable-source-maps` made Node read and parse each bundle's map at every cold start;
 * the logger maps a logged error's stack through the map instead, on the first error
 * (functions/src/config/source-stack.ts; docs/decisions/0008-source-maps-on-error.md).
 */
export const functionNodeOptions: string = '';

/**
 * The environment every function gets besides its table, bucket and secrets: the stack sets it in
 * AWS, and the local runtime, the bench and the handler tests set the same values.
 */
export const functionEnvironment = {
  TOKEN_ISSUER: 'reseller-portal',
  TOKEN_AUDIENCE: 'reseller-portal-api',
  POWERTOOLS_SERVICE_NAME: 'reseller-portal',
} as const;

/**
 * Native modules (sharp, for the import's pictures: issue 28) cannot be bundled by esbuild: a
 * function that lists them (EventFunction.nativeModules) keeps them external and gets them
 * installed into its bundle folder for Lambda's platform, linux-arm64 with glibc (the functions
 * are ARM_64, nodejs24.x on Amazon Linux 2023), at the version package-lock.json holds. npm picks
 * the prebuilt binaries of that platform (`@img/sharp-linux-arm64`, `@img/sharp-libvips-linux-arm64`)
 * whatever machine synthesizes, as sharp's documentation describes for cross-platform installs.
 */
/** Every native module a function may list: never bundled (the bench and the deployed-bundle tests keep them external too). */
export const NATIVE_MODULES = ['sharp'] as const;

export const LAMBDA_NPM_PLATFORM = ['--os=linux', '--cpu=arm64', '--libc=glibc'] as const;

/** The version of an installed package as package-lock.json holds it (the one the tests ran against). */
export function lockedVersion(lock: { packages?: Record<string, { version?: string }> }, name: string): string {
  const version = lock.packages?.[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`package-lock.json holds no version of ${name}`);
  return version;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * The shell commands that put `modules` (name@version) into `outputDir/node_modules` for Lambda's
 * platform: installed once per set of versions into `cacheDir` (from the npm registry, as the
 * first `npm install` is), then copied. No install script runs (sharp's only checks its binaries).
 */
export function nativeModuleCommands(modules: readonly string[], outputDir: string, cacheDir: string): string[] {
  const cache = shellQuote(cacheDir);
  const install = [
    'npm install --no-audit --no-fund --ignore-scripts --omit=dev --no-package-lock',
    ...LAMBDA_NPM_PLATFORM,
    ...modules.map(shellQuote),
  ].join(' ');
  return [
    `mkdir -p ${cache}`,
    `( [ -f ${cache}/.complete ] || ( cd ${cache} && printf '{"private":true}' > package.json && ${install} && touch .complete ) )`,
    `cp -R ${cache}/node_modules ${shellQuote(outputDir)}/node_modules`,
  ];
}
