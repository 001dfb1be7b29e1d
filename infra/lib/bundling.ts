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
   * (`npm run bench -- bundles`, docs/architecture.md "Cold starts").
   */
  externalModules: ['@aws-sdk/*'],
  format: 'cjs',
} as const;

/**
 * NODE_OPTIONS of every function, none now (the stack sets the variable only when this is not
 * empty). `--enable-source-maps` made Node read and parse each bundle's map at every cold start;
 * the logger maps a logged error's stack through the map instead, on the first error
 * (functions/src/config/source-stack.ts; docs/architecture.md "Cold starts").
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
