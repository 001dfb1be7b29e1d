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
   * source: with `--enable-source-maps` Node reads and parses the map at cold start, and the
   * copies made it 2.2 times larger (create-payout-account: 1,214 KB → 556 KB).
   */
  sourcesContent: false,
  /** The Lambda runtime is nodejs22.x. */
  target: 'node22',
  /**
   * Provided by the Lambda Node.js runtime; measured to start faster than bundling the SDK
   * (`npm run bench -- bundles`, docs/architecture.md "Cold starts").
   */
  externalModules: ['@aws-sdk/*'],
  format: 'cjs',
} as const;

/** NODE_OPTIONS of every function (stack traces through the source maps). */
export const functionNodeOptions = '--enable-source-maps';

/**
 * The environment every function gets besides its table, bucket and secrets: the stack sets it in
 * AWS, and the local runtime, the bench and the handler tests set the same values.
 */
export const functionEnvironment = {
  TOKEN_ISSUER: 'reseller-portal',
  TOKEN_AUDIENCE: 'reseller-portal-api',
  POWERTOOLS_SERVICE_NAME: 'reseller-portal',
} as const;
